#!/usr/bin/env bash
# JMH benchmark of plan (tile cover) and key throughput for WebMercatorQuad, one thread.
# Prints tiles/s and keys/s per core. Extra arguments go to JMH (for example -wi 1 -i 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install -pl transforms -am
mvn -B -q test-compile -pl transforms
mvn -B -q dependency:build-classpath -pl transforms -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/transforms/target/bench.classpath"
cp="transforms/target/test-classes:transforms/target/classes:$(cat transforms/target/bench.classpath)"
java -cp "$cp" org.openjdk.jmh.Main 'io.tilebeam.transforms.bench.PlanKeyBenchmark' -t 1 "$@"
