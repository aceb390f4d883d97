#!/usr/bin/env bash
# Publish throughput of the local sink for small tiles (tiles/s), one thread: new tiles, then the
# same tiles again (unchanged). Usage: scripts/bench/publish.sh [TILES] [OUTPUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install -pl io -am
mvn -B -q dependency:build-classpath -pl io -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/io/target/bench.classpath"
cp="io/target/test-classes:io/target/classes:$(cat io/target/bench.classpath)"
java -cp "$cp" io.tilebeam.io.bench.PublishBenchmark "$@"
