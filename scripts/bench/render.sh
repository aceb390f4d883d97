#!/usr/bin/env bash
# JMH benchmark of per-tile rendering (ReprojectTiles' work) on one thread: tiles/s for 10 and 200
# polygons a tile, to EPSG:3857 and to EPSG:4326. Extra arguments go to JMH.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install -pl transforms -am
mvn -B -q test-compile -pl transforms
mvn -B -q dependency:build-classpath -pl transforms -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/transforms/target/bench.classpath"
cp="transforms/target/test-classes:transforms/target/classes:$(cat transforms/target/bench.classpath)"
java -cp "$cp" org.openjdk.jmh.Main 'io.tilebeam.transforms.bench.RenderBenchmark' -t 1 "$@"
