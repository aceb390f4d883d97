#!/usr/bin/env bash
# SIS (tilebeam's transforms) against PROJ's cs2cs on the same points: 5,000,000 random WGS 84
# points (seeded) to Web Mercator by default. Prints points/s for cs2cs (file to file, its wall
# time) and for SIS (the transform alone on arrays, and file to file with the same text in and out).
# Usage: scripts/bench/transform.sh [POINTS] [TARGET]   (the source is EPSG:4326)
set -euo pipefail
cd "$(dirname "$0")/../.."
points="${1:-5000000}"
source_crs=EPSG:4326
target_crs="${2:-EPSG:3857}"
scripts/setup.sh
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install -pl transforms -am
mvn -B -q dependency:build-classpath -pl transforms -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/transforms/target/bench.classpath"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# lat lon lines (EPSG:4326's axis order, which cs2cs follows), within Web Mercator's latitudes.
awk -v n="$points" 'BEGIN { srand(42); for (i = 0; i < n; i++)
  printf "%.9f %.9f\n", -85 + 170 * rand(), -180 + 360 * rand() }' > "$work/points.txt"
start=$(date +%s.%N)
cs2cs -f %.6f "$source_crs" "$target_crs" < "$work/points.txt" > "$work/cs2cs.txt"
end=$(date +%s.%N)
seconds=$(echo "$end - $start" | bc)
echo "cs2cs $source_crs -> $target_crs, $points points: $(echo "$points / $seconds" | bc) points/s ($seconds s, file to file)"
cp="transforms/target/test-classes:transforms/target/classes:$(cat transforms/target/bench.classpath)"
java -Xmx3g -cp "$cp" io.tilebeam.transforms.bench.TransformBenchmark \
  "$work/points.txt" "$work/sis.txt" "$source_crs" "$target_crs" 2>/dev/null
