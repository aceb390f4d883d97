#!/usr/bin/env bash
# Runs one tilebeam job for cron, systemd timers or Airflow, one instance at a time per job.
# Usage: scripts/nightly.sh JOB_FILE [more `tilebeam run` flags, e.g. --ledger URL --runner=...]
#
# - Lock: a second start while the job is running exits 75 (EX_TEMPFAIL) at once, touching nothing.
# - Log: everything tilebeam prints goes to $TILEBEAM_LOG_DIR/<job>-<UTC time>.log (default
#   ./logs), and the run report to the .report.json beside it; <job>-latest.log and
#   <job>-latest.report.json point at the newest.
# - Exit status: tilebeam's, passed through: 0 every tile written or skipped, 2 bad job or
#   arguments (nothing written), 3 some tiles failed (see the report and _failed/), 1 anything else.
# TILEBEAM names the command to run (default: scripts/tilebeam beside this script).
set -uo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 JOB_FILE [tilebeam run flags]" >&2
  exit 2
fi
job="$1"
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
tilebeam="${TILEBEAM:-$root/scripts/tilebeam}"
log_dir="${TILEBEAM_LOG_DIR:-logs}"
name="$(basename "$job")"
name="${name%.*}"
mkdir -p "$log_dir" || exit 1

exec 9>"$log_dir/$name.lock"
if ! flock -n 9; then
  echo "nightly: $name is already running (lock $log_dir/$name.lock); not starting another" >&2
  exit 75
fi

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
log="$log_dir/$name-$stamp.log"
report="$log_dir/$name-$stamp.report.json"
{
  echo "nightly: $(date -u +%FT%TZ) starting $tilebeam run --job $job $*"
} >>"$log"
"$tilebeam" run --job "$job" --report "$report" "$@" >>"$log" 2>&1
status=$?
echo "nightly: $(date -u +%FT%TZ) finished with exit status $status" >>"$log"
ln -sfn "$(basename "$log")" "$log_dir/$name-latest.log"
if [[ -f "$report" ]]; then
  ln -sfn "$(basename "$report")" "$log_dir/$name-latest.report.json"
fi
exit "$status"
