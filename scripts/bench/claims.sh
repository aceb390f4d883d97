#!/usr/bin/env bash
# Claims/s through FilterAgainstLedger against raw batched INSERT ... ON CONFLICT, same database.
# Usage: scripts/bench/claims.sh [KEYS] [Beam options, e.g. --runner=FlinkRunner --flinkMaster=[local]]
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install -pl io -am
mvn -B -q test-compile -pl io
mvn -B -q dependency:build-classpath -pl io -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/io/target/bench.classpath"
cp="io/target/test-classes:io/target/classes:$(cat io/target/bench.classpath)"
java -Xmx3g -cp "$cp" io.tilebeam.io.bench.ClaimBenchmark "$@"
