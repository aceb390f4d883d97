#!/usr/bin/env bash
# Installs the tools the build and tests use when they are missing (Debian packages; needs root
# or sudo): a JDK 17, Maven, the command-line tools of GDAL and PROJ that tests compare against
# (and make FlatGeobuf and PostGIS sources with), curl and python3 for the Flink session script,
# PostgreSQL 15 with PostGIS 3 (Debian's packages) for the PostGIS tests, which start their own
# cluster with initdb/pg_ctl as the postgres user, and Node.js with npm for the reference readers
# and writers of the formats that have one in JavaScript (the npm packages `pmtiles`, `hyparquet`,
# `hyparquet-writer` and DuckDB's `@duckdb/node-api`, whose Parquet writer makes the GeoParquet of
# the reader tests, and `playwright-core`, which drives Debian's Chromium for the map preview's
# screenshot test, installed into $TILEBEAM_NPM, by default ~/.cache/tilebeam-npm, where the tests
# find them).
set -euo pipefail
missing=()
command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
command -v ogrinfo >/dev/null || missing+=(gdal-bin)
command -v cs2cs >/dev/null || missing+=(proj-bin)
command -v curl >/dev/null || missing+=(curl)   # scripts/flink-session.sh asks the REST API
command -v python3 >/dev/null || missing+=(python3)
[[ -x /usr/lib/postgresql/15/bin/initdb ]] || missing+=(postgresql-15)
[[ -f /usr/share/postgresql/15/extension/postgis.control ]] || missing+=(postgresql-15-postgis-3)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
# The map preview's screenshot test drives Debian's headless Chromium through playwright-core.
command -v chromium >/dev/null || missing+=(chromium)
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
npm_prefix="${TILEBEAM_NPM:-$HOME/.cache/tilebeam-npm}"
npm_packages=(pmtiles@4.5.0 hyparquet@1.33.0 hyparquet-writer@0.17.0 @duckdb/node-api@1.5.6-r.1
  playwright-core@1.65.2)
for package in "${npm_packages[@]}"; do
  name="${package%@*}"  # the last @ splits off the version, so a scoped name keeps its own
  version="${package##*@}"
  installed="$npm_prefix/node_modules/$name/package.json"
  if [[ ! -f "$installed" ]] || ! grep -q "\"version\": \"$version\"" "$installed"; then
    echo "setup: installing the npm packages ${npm_packages[*]} into $npm_prefix" >&2
    mkdir -p "$npm_prefix"
    npm install --silent --no-audit --no-fund --prefix "$npm_prefix" "${npm_packages[@]}" >/dev/null
    break
  fi
done
