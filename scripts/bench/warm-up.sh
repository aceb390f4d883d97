#!/usr/bin/env bash
# Readies a newly built jar the way its first run on any installation does, so that the timed runs
# after it measure tilebeam's work and not that one-off cost: the first `run` of a new jar records
# its class-data sharing archive (see scripts/tilebeam) and unpacks the embedded PostgreSQL
# binaries, which made the first timed run of a benchmark right after a build up to half again
# slower. Runs the shipped sample job once, untimed, on the default runner of `run`, into a scratch
# directory; does nothing when the jar's archive is already there.
# Usage: scripts/bench/warm-up.sh   (the benchmarks call it after scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=pipeline/target/tilebeam.jar
source scripts/jvm-archive.sh
archive="$(jvm_archive .)"
if [[ "${TILEBEAM_CDS:-1}" == 0 || ( -f "$archive" && "$archive" -nt "$jar" ) ]]; then
  exit 0
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
sed "s#uri: out/#uri: $scratch/out/#" src/samples/sample-job.yaml > "$scratch/job.yaml"
echo "warming up the new jar (one untimed run of the sample job)" >&2
scripts/tilebeam run --job "$scratch/job.yaml" --home "$scratch/home" > "$scratch/run.log" 2>&1 || {
  tail -20 "$scratch/run.log" >&2; exit 1; }
