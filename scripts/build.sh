#!/usr/bin/env bash
# Builds the runnable jar (pipeline/target/tilebeam.jar) without running the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install
