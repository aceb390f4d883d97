#!/usr/bin/env bash
# Raster benchmark: a seeded 20,000 x 20,000-pixel 8-bit COG in UTM zone 32N (30 m cells,
# 600 km square, made once into $TILEBEAM_BENCH_DATA) cut into Web Mercator tiles at the zooms that
# cover its resolution, by tilebeam (8-bit PNG, bilinear) and by gdal2tiles.py --processes=2
# (PNG, bilinear) over the same file in the same run. Prints megapixels/s of both (tiles x 256^2 /
# wall time) and their ratio, tilebeam's peak heap.
# Usage: scripts/bench/raster.sh [SIZE] [MIN_ZOOM] [MAX_ZOOM] [runner options]
set -euo pipefail
cd "$(dirname "$0")/../.."
size="${1:-20000}"
min_zoom="${2:-5}"
max_zoom="${3:-12}"
shift 3 || shift $# || true
runner=("$@")
((${#runner[@]})) || runner=(--runner=FlinkRunner --flinkMaster=[local] --parallelism=2 --fasterCopy=true)

scripts/setup.sh
data="${TILEBEAM_BENCH_DATA:-$HOME/.cache/tilebeam-bench}/raster"
source_file="$data/image-$size.tif"
if [[ ! -s "$source_file" ]]; then
  mkdir -p "$data"
  echo "making the source: $size x $size pixels"
  java scripts/bench/raster/MakeSource.java "$data/image-$size.bil" "$size"
  # 30 m cells, west edge at easting 200000, north edge at northing 5500000.
  gdal_translate -q -of COG -co COMPRESS=DEFLATE -co PREDICTOR=2 -co NUM_THREADS=2 \
    -a_srs EPSG:32632 -a_ullr 200000 5500000 $((200000 + size * 30)) $((5500000 - size * 30)) \
    -a_nodata 0 "$data/image-$size.bil" "$source_file"
  rm -f "$data/image-$size.bil" "$data/image-$size.hdr"
fi
echo "input: $source_file, $(du -m "$source_file" | cut -f1) MB, zooms $min_zoom-$max_zoom"
bbox=$(gdalinfo -json "$source_file" | python3 -c '
import json, sys
w = json.load(sys.stdin)["wgs84Extent"]["coordinates"][0]
xs = [p[0] for p in w]; ys = [p[1] for p in w]
print("[%.6f, %.6f, %.6f, %.6f]" % (min(xs), min(ys), max(xs), max(ys)))')

scripts/build.sh
scripts/bench/warm-up.sh
work="$(mktemp -d)"
trap '[[ -n "${KEEP:-}" ]] || rm -rf "$work"' EXIT
cat > "$work/job.yaml" <<JOB
namespace: bench-raster
layers:
  - name: terrain
    source: {uri: $source_file, format: geotiff}
    extents: [{bbox: $bbox}]
    tileMatrixSet: WebMercatorQuad
    zooms: [$min_zoom, $max_zoom]
    targetCrs: EPSG:3857
    output: {uri: $work/out, format: png}
    params: {resampling: bilinear}
JOB

start=$(date +%s.%N)
TILEBEAM_JAVA_OPTS="-Xmx2g -Xlog:gc:file=$work/gc.log" \
  scripts/tilebeam run --job "$work/job.yaml" --home "$work/home" --report "$work/report.json" \
  --progress-every 30s "${runner[@]}" 2>&1 | tee "$work/run.log" | grep --line-buffered -E "ProgressLog|^run " >&2 || true
end=$(date +%s.%N)
[[ -s "$work/report.json" ]] || { tail -40 "$work/run.log"; exit 1; }
tilebeam_s=$(echo "$end - $start" | bc)

start=$(date +%s.%N)
gdal2tiles.py --processes=2 -r bilinear --xyz -w none -q -z "$min_zoom-$max_zoom" \
  "$source_file" "$work/gdal2tiles" > "$work/gdal2tiles.log" 2>&1 || { cat "$work/gdal2tiles.log"; exit 1; }
end=$(date +%s.%N)
gdal_s=$(echo "$end - $start" | bc)
gdal_tiles=$(find "$work/gdal2tiles" -name '*.png' | wc -l)

python3 - "$work/report.json" "$tilebeam_s" "$gdal_s" "$gdal_tiles" "$work/gc.log" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
t, g, gt = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
peak = 0
for line in open(sys.argv[5]):
    m = re.search(r"(\d+)M->(\d+)M\(\d+M\)", line)
    if m:
        peak = max(peak, int(m.group(1)))
px = 256 * 256 / 1e6
tb = r["written"] * px / t
gd = gt * px / g
print(f"tilebeam (-Xmx2g): {r['written']} tiles in {t:.1f} s: {tb:.1f} megapixels/s, failed {r['failed']}")
print(f"gdal2tiles.py --processes=2: {gt} tiles in {g:.1f} s: {gd:.1f} megapixels/s")
print(f"megapixels/s, tilebeam over gdal2tiles: {tb / gd:.2f} (target >= 1.0)")
print(f"peak heap: {peak} MB used before a collection")
PY
