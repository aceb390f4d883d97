#!/usr/bin/env bash
# A 1,000,000-polygon GeoJSONSeq job on Flink [local] with -Xmx1g, against ogr2ogr -t_srs over the
# same file. Prints features/s read and tiles/s end to end for tilebeam, and ogr2ogr's features/s.
# Then the same squares as an indexed FlatGeobuf, read per group of claimed tiles, and as GeoParquet
# (written by the npm package hyparquet-writer, Snappy, 65,536 rows a row group as GDAL writes
# them), read by row groups; checks all three give the same tiles.
# Usage: scripts/bench/seq-million.sh [FEATURES] [runner options, default: those of `run`]
set -euo pipefail
cd "$(dirname "$0")/../.."
features="${1:-1000000}"
shift || true
runner=("$@")
# Without runner options, the default runner of `run`: an embedded Flink with one slot per core.
# ogr2ogr, the tool compared against, comes with GDAL: installed here when missing.
scripts/setup.sh
scripts/build.sh
scripts/bench/warm-up.sh
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Seeded squares of about 200 m over western Europe, one Feature a line.
source scripts/bench/data.sh
make_squares "$features" "$work/squares.geojsonseq"
echo "input: $features polygons, $(du -m "$work/squares.geojsonseq" | cut -f1) MB"

cat > "$work/job.yaml" <<JOB
namespace: bench-seq-million
layers:
  - name: squares
    source: {uri: $work/squares.geojsonseq, format: geojsonseq}
    extents: [{bbox: [-10, 36, 30, 60]}]
    tileMatrixSet: WebMercatorQuad
    zooms: [6, 7]
    targetCrs: EPSG:3857
    output: {uri: $work/out, format: flatgeobuf}
JOB

# Runs tilebeam on job NAME.yaml with -Xmx1g and prints what it did as LABEL.
run_tilebeam() {
  local name="$1" label="$2" start end
  # Each timed run starts with nothing left to write back: the file just generated (or the
  # previous run's output) would otherwise be flushed to disk during it.
  sync
  start=$(date +%s.%N)
  TILEBEAM_JAVA_OPTS="-Xmx1g" scripts/tilebeam run --job "$work/$name.yaml" --home "$work/home-$name" \
    --report "$work/report-$name.json" "${runner[@]}" > "$work/run-$name.log" 2>&1 || {
    tail -30 "$work/run-$name.log"; exit 1; }
  end=$(date +%s.%N)
  python3 - "$work/report-$name.json" "$start" "$end" "$label" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); s = float(sys.argv[3]) - float(sys.argv[2])
print("%s (-Xmx1g): %d features read, %d tiles written, %d features written in %.1f s: "
      "%.0f features/s read, %.1f tiles/s" % (sys.argv[4], r["featuresRead"], r["written"],
      r["featuresWritten"], s, r["featuresRead"] / s, r["written"] / s))
PY
}

run_tilebeam job "tilebeam"

sync
start=$(date +%s.%N)
ogr2ogr -f FlatGeobuf -t_srs EPSG:3857 "$work/ogr.fgb" "$work/squares.geojsonseq"
end=$(date +%s.%N)
python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); n=int(sys.argv[3]); \
print('ogr2ogr -t_srs EPSG:3857: %d features in %.1f s: %.0f features/s' % (n, s, n / s))" \
  "$start" "$end" "$features"

# The same squares as an indexed FlatGeobuf (GDAL's, in EPSG:4326): every claimed tile reads its
# own features through the R-tree instead of one pass over the file and a join. GDAL makes integer
# GeoJSON ids the FID, which FlatGeobuf does not store; the -sql keeps them as an id column.
ogr2ogr -f FlatGeobuf -sql 'SELECT FID AS id, * FROM squares' "$work/squares.fgb" \
  "$work/squares.geojsonseq"
sed -e "s#uri: $work/squares.geojsonseq, format: geojsonseq#uri: $work/squares.fgb, format: flatgeobuf#" \
  -e "s#uri: $work/out,#uri: $work/out-fgb,#" "$work/job.yaml" > "$work/job-fgb.yaml"
run_tilebeam job-fgb "tilebeam over FlatGeobuf, read per group of claimed tiles through its index"
# Both inputs give the same tiles.
if diff -r -q "$work/out/squares" "$work/out-fgb/squares" > /dev/null; then
  echo "tiles from GeoJSONSeq and from FlatGeobuf: identical"
else
  echo "tiles from GeoJSONSeq and from FlatGeobuf: DIFFERENT"; exit 1
fi

# The same squares as GeoParquet 1.1 with a bbox covering column, written by an independent writer
# (this GDAL has no Parquet driver); its time to write is not counted.
NODE_PATH="${TILEBEAM_NPM:-$HOME/.cache/tilebeam-npm}/node_modules" node --max-old-space-size=8192 \
  io/src/test/resources/io/tilebeam/io/source/write-geoparquet.mjs \
  "$work/squares.geojsonseq" "$work/squares.parquet" 65536 > /dev/null
echo "GeoParquet input: $(du -m "$work/squares.parquet" | cut -f1) MB"
sed -e "s#uri: $work/squares.geojsonseq, format: geojsonseq#uri: $work/squares.parquet, format: geoparquet, idColumn: id#" \
  -e "s#uri: $work/out,#uri: $work/out-parquet,#" "$work/job.yaml" > "$work/job-parquet.yaml"
run_tilebeam job-parquet "tilebeam over GeoParquet, read by row groups"
if diff -r -q "$work/out/squares" "$work/out-parquet/squares" > /dev/null; then
  echo "tiles from GeoJSONSeq and from GeoParquet: identical"
else
  echo "tiles from GeoJSONSeq and from GeoParquet: DIFFERENT"; exit 1
fi
