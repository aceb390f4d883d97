#!/usr/bin/env bash
# Installs the tools the build and tests use when they are missing (Debian packages; needs root
# or sudo): a JDK 17, Maven, and the command-line tools of GDAL and PROJ that tests compare against.
set -euo pipefail
missing=()
command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
command -v ogrinfo >/dev/null || missing+=(gdal-bin)
command -v cs2cs >/dev/null || missing+=(proj-bin)
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
