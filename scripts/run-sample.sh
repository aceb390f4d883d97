#!/usr/bin/env bash
# Quickstart: builds tilebeam and runs the sample job on the default runner (an embedded Flink) with
# the embedded ledger (kept in ./.tilebeam/), publishing tiles under ./out/. Run it twice: the
# second run skips every tile because the ledger says it is completed. Extra arguments go to
# `tilebeam run` (--runner=DirectRunner, for one).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
mkdir -p out
scripts/tilebeam run --job src/samples/sample-job.yaml --report out/report.json "$@"
echo "report: out/report.json; tiles: $(find out -type f \( -name '*.fgb' -o -name '*.geojson' -o -name '*.mvt' -o -name '*.tif' -o -name '*.png' \) | wc -l) files under out/"
