#!/usr/bin/env bash
# JMH benchmark of the render engine on one thread: tile-features/s (a feature written into a tile)
# for the real country polygons of src/fixtures/countries and for synthetic squares, at zooms 4, 6
# and 8: read, repaired once, cut into tile pieces and rendered. Extra arguments go to JMH.
exec "$(dirname "$0")/jmh.sh" RenderBenchmark "$@"
