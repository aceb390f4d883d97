#!/usr/bin/env bash
# Builds tilebeam with Beam's Dataflow runner and submits a job to Google Cloud Dataflow, which
# stages the jar in --stagingLocation (default: under --tempLocation) and runs the pipeline there.
#
# Usage: scripts/dataflow.sh JOB --ledger JDBC_URL --project=P --region=R --tempLocation=gs://B/tmp
#                            [--serviceAccount=... --network=... --subnetwork=... other options]
#
# Dataflow workers are other machines: the ledger must be a PostgreSQL server they reach (Cloud
# SQL on a private IP, say), and sources and outputs must be gs:// objects or PostGIS tables; tilebeam
# refuses the embedded ledger and local paths before anything is claimed. Google credentials come
# from the environment as for any Google client (GOOGLE_APPLICATION_CREDENTIALS, or the metadata
# server). The launcher waits for the job and writes the report as with any runner.
#
# The jar is built into pipeline/target/tilebeam-dataflow.jar, beside the default one, which does
# not carry the Dataflow client.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if (($# < 1)); then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
job="$1"
shift
jar="$root/pipeline/target/tilebeam-dataflow.jar"
if [[ ! -f "$jar" || -n "$(find "$root/pom.xml" "$root/transforms" "$root/io" "$root/pipeline" \
      -newer "$jar" -type f \( -name '*.java' -o -name 'pom.xml' \) -not -path '*/target/*' \
      -print -quit)" ]]; then
  (cd "$root" && mvn -B -q -Pdataflow -DskipTests -Dspotless.check.skip=true \
    -Dcheckstyle.skip=true package -pl pipeline -am)
  cp "$root/pipeline/target/tilebeam.jar" "$jar"
  # The default jar must not keep the Dataflow client: rebuild it on next use.
  rm -f "$root/pipeline/target/tilebeam.jar" "$root"/pipeline/target/tilebeam*.jsa
fi
# shellcheck source=scripts/jvm-archive.sh
source "$root/scripts/jvm-archive.sh"
java="$(tilebeam_java)" || exit 2
# shellcheck disable=SC2086  # TILEBEAM_JAVA_OPTS is a list of options, split on spaces
exec "$java" ${TILEBEAM_JAVA_OPTS:-} -jar "$jar" run --job "$job" --runner=DataflowRunner "$@"
