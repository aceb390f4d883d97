#!/usr/bin/env bash
# Installs the tools the build and tests use when they are missing (Debian packages; needs root
# or sudo): a JDK 17, Maven, the command-line tools of GDAL and PROJ that tests compare against
# (and make FlatGeobuf and PostGIS sources with), curl and python3 for the Flink session script,
# and PostgreSQL 15 with PostGIS 3 (Debian's packages) for the PostGIS tests, which start their
# own cluster with initdb/pg_ctl as the postgres user.
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
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
