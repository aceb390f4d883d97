#!/usr/bin/env bash
# JMH benchmark of per-tile rendering (ReprojectTiles' work) on one thread: tiles/s for 10 and 200
# polygons a tile, to EPSG:3857 and to EPSG:4326. Extra arguments go to JMH.
exec "$(dirname "$0")/jmh.sh" RenderBenchmark "$@"
