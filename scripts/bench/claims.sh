#!/usr/bin/env bash
# Claims/s through FilterAgainstLedger against raw batched INSERT ... ON CONFLICT, same database.
# Usage: scripts/bench/claims.sh [KEYS] [Beam options, e.g. --runner=FlinkRunner --flinkMaster=[local]]
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install
mvn -B -q test-compile -pl pipeline
mvn -B -q dependency:build-classpath -pl pipeline -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/pipeline/target/bench.classpath"
cp="pipeline/target/test-classes:pipeline/target/classes:$(cat pipeline/target/bench.classpath)"
java -Xmx3g -cp "$cp" io.tilebeam.pipeline.bench.ClaimBenchmark "$@"
