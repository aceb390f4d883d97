#!/usr/bin/env bash
# A no-op rerun of a completed job against its first run: a 100,435-tile job over the sample data
# (the world at zooms 0-8 and Europe at zoom 9), run twice with a fresh embedded ledger, on the
# default runner of `run` (an embedded Flink with one slot per core) unless runner options are
# given. Prints the cost of creating one file in the work directory (TMPDIR moves it), both wall
# times, their ratio and the first run's tiles/s.
# Usage: scripts/bench/rerun.sh [runner options, e.g. --runner=DirectRunner]
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/build.sh
scripts/bench/warm-up.sh
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/job.yaml" <<JOB
namespace: bench-rerun
layers:
  - name: world
    source: {uri: $PWD/src/samples/islands.geojson, format: geojson}
    extents: [{bbox: [-180, -85, 180, 85]}]
    tileMatrixSet: WebMercatorQuad
    zooms: [0, 8]
    targetCrs: EPSG:3857
    output: {uri: $work/out, format: geojson}
  - name: europe
    source: {uri: $PWD/src/samples/islands.geojson, format: geojson}
    extents: [{bbox: [-25, 30, 60, 72]}]
    tileMatrixSet: WebMercatorQuad
    zooms: [9, 9]
    targetCrs: EPSG:3857
    output: {uri: $work/out, format: geojson}
JOB
run() {
  local start end
  start=$(date +%s.%N)
  scripts/tilebeam run --job "$work/job.yaml" --home "$work/home" --report "$work/report.json" "$@" \
    2>"$work/stderr.log" | tail -1 >&2
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
# The first run creates 100,435 files. What that costs depends on the file system more than on
# tilebeam: on ext4 without a journal, a file created in a block group where many files were
# deleted in the last minutes costs far more kernel time (find_inode_bit skips recently deleted
# inodes) than elsewhere. Print it, so the first run's figure can be read.
python3 - "$work" <<'PY' >&2
import os, sys, time
d = os.path.join(sys.argv[1], "create-probe")
os.makedirs(d)
t = time.perf_counter()
for i in range(2000):
    os.close(os.open(os.path.join(d, str(i)), os.O_CREAT | os.O_WRONLY | os.O_EXCL))
print("creating a file in %s: %.0f us" % (sys.argv[1], (time.perf_counter() - t) * 1e6 / 2000))
PY
first=$(run "$@")
written=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['written'])" "$work/report.json")
echo "first run: ${first} s, ${written} tiles written: $(echo "scale=1; $written / $first" | bc) tiles/s"
second=$(run "$@")
echo "no-op rerun: ${second} s"
echo "ratio: $(echo "scale=3; $second / $first" | bc)"
