#!/usr/bin/env bash
# Publish throughput per sink for small tiles (tiles/s), one thread: new tiles, then the same tiles
# again. Usage: scripts/bench/publish.sh [local|gcs|postgis|all] [TILES]
# gcs runs against the in-process GCS stand-in over loopback; postgis starts a test cluster
# (Debian's PostgreSQL 15 + PostGIS, fsync off). See io/src/test/.../bench/PublishBenchmark.java.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install -pl io -am
mvn -B -q dependency:build-classpath -pl io -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/io/target/bench.classpath"
cp="io/target/test-classes:io/target/classes:$(cat io/target/bench.classpath)"
sinks=("${1:-all}")
[[ ${sinks[0]} == all ]] && sinks=(local gcs postgis)
for sink in "${sinks[@]}"; do
  java -cp "$cp" io.tilebeam.io.bench.PublishBenchmark "$sink" "${2:-5000}"
done
