#!/usr/bin/env bash
# JMH benchmark of plan (tile cover) and key throughput for WebMercatorQuad, one thread.
# Prints tiles/s and keys/s per core. Extra arguments go to JMH (for example -wi 1 -i 2).
exec "$(dirname "$0")/jmh.sh" PlanKeyBenchmark "$@"
