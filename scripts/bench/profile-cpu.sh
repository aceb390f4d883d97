#!/usr/bin/env bash
# Where a run's CPU time goes: records `scripts/tilebeam run ARGS...` with Linux perf (CPU-clock
# samples with call stacks over the whole process tree, the embedded PostgreSQL included) and
# prints CPU seconds by thread and by code. The JVM is given -XX:+PreserveFramePointer (so perf can
# walk Java stacks) and -XX:+DumpPerfMapAtExit (so compiled methods have their names). Together with
# the sampling they cost less than runs of one job differ by (the zooms 0-5 countries job: 50.3
# CPU-s sampled, between plain runs of 50.9 and 53.3 taken just before and after), but time jobs
# without this script all the same.
#
# JFR's execution samples are not CPU time (they sample Java threads only, and weigh waiting and the
# interpreter otherwise); this is. Methods inlined into another are counted under the method they
# were compiled into, so "by code" groups by package, not by call.
#
# Needs perf: installed from Debian (linux-perf) when missing and run as root; otherwise install it
# yourself. The data stays in $PROFILE_DIR (default a new temporary directory): perf.data, the
# samples as text (samples.txt) and the summary (summary.txt), and a copy of the JVM's symbol map
# (perf reads it from /tmp/perf-<pid>.map, where the JVM wrote it: copy it back there to report on
# the data once /tmp was cleaned).
# Usage: [PROFILE_DIR=dir] [PROFILE_HZ=999] scripts/bench/profile-cpu.sh --job JOB --home HOME ...
set -euo pipefail
cd "$(dirname "$0")/../.."
(( $# > 0 )) || { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

if ! command -v perf > /dev/null; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get > /dev/null; then
    echo "installing linux-perf (Debian)" >&2
    apt-get update -qq > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-perf > /dev/null
  else
    echo "perf is not installed (Debian: apt-get install linux-perf, as root)" >&2
    exit 1
  fi
fi
# Unprivileged users can sample their own processes at level 1 or lower.
if [[ "$(id -u)" != 0 && "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 1 ]]; then
  echo "kernel.perf_event_paranoid is above 1: run as root or lower it" >&2
  exit 1
fi

dir="${PROFILE_DIR:-$(mktemp -d)}"
mkdir -p "$dir"
hz="${PROFILE_HZ:-999}"
scripts/build.sh
scripts/bench/warm-up.sh

flags="-XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit"
status=0
touch "$dir/.start"
TILEBEAM_JAVA_OPTS="${TILEBEAM_JAVA_OPTS:-} $flags" \
  perf record -q -e cpu-clock -F "$hz" -g -o "$dir/perf.data" -- scripts/tilebeam run "$@" \
  > "$dir/run.log" 2>&1 || status=$?
if (( status != 0 && status != 3 )); then
  tail -20 "$dir/run.log" >&2
  echo "the run failed (exit $status); its log: $dir/run.log" >&2
  exit 1
fi
# The JVM wrote /tmp/perf-<pid>.map at exit; keep it with the data (perf looks for it in /tmp).
find /tmp -maxdepth 1 -name 'perf-*.map' -newer "$dir/.start" -exec cp {} "$dir/" \;
perf script -i "$dir/perf.data" -F comm,ip,sym,dso 2> /dev/null > "$dir/samples.txt"

python3 scripts/bench/profile-summary.py "$dir/samples.txt" "$hz" | tee "$dir/summary.txt"
echo "profile: $dir (perf report -i $dir/perf.data --no-children --sort sym)"
