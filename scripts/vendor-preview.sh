#!/usr/bin/env bash
# Copies the map preview's browser libraries, at pinned npm versions, into the jar's resources
# (pipeline/src/main/resources/io/tilebeam/pipeline/preview), where they are kept in git: a run
# writes them beside its preview.html, and nothing on a user's machine needs npm or a CDN.
# Run it only to change a version; then commit what it changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/pipeline/src/main/resources/io/tilebeam/pipeline/preview"
maplibre=maplibre-gl@5.24.1
pmtiles=pmtiles@4.5.0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm install --silent --no-audit --no-fund --prefix "$work" "$maplibre" "$pmtiles" >/dev/null
cp "$work/node_modules/maplibre-gl/dist/maplibre-gl.js" "$dest/maplibre-gl.js"
cp "$work/node_modules/maplibre-gl/dist/maplibre-gl.css" "$dest/maplibre-gl.css"
cp "$work/node_modules/maplibre-gl/LICENSE.txt" "$dest/LICENSE-maplibre-gl.txt"
cp "$work/node_modules/pmtiles/dist/pmtiles.js" "$dest/pmtiles.js"
# The pmtiles package ships no licence file; its package.json names the licence.
node -e 'const p=require(process.argv[1]); console.log(p.name + " " + p.version + ": " + p.license + " (Protomaps LLC), " + p.homepage)' \
  "$work/node_modules/pmtiles/package.json" > "$dest/LICENSE-pmtiles.txt"
echo "$maplibre $pmtiles" > "$dest/VERSIONS"
