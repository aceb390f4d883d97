#!/usr/bin/env bash
# A local Flink 1.19 session cluster from Flink's Maven artifacts: a JobManager and two
# TaskManagers, each in its own JVM, REST and RPC on the loopback address only.
#
# Usage:
#   scripts/flink-session.sh start DIR          start the cluster; its config, logs and pids in DIR
#   scripts/flink-session.sh master DIR         print the --flinkMaster value (host:rest-port)
#   scripts/flink-session.sh kill-taskmanager DIR N   SIGKILL TaskManager N (1 or 2, or busy:
#                                               the one that has run the most tasks)
#   scripts/flink-session.sh stop DIR           stop every process of the cluster
#   scripts/flink-session.sh run JOB [ARGS...]  start a cluster, submit `tilebeam run --job JOB`
#                                               with --flinkMaster, stop it; exit status passed on
#
# Restart strategy (flink-conf.yaml below): fixed-delay, 3 attempts 5 s apart. A lost TaskManager
# is a passing failure, and a tilebeam job can be restarted anywhere (claims are owned by the run
# and re-entered, publishing is idempotent), so Flink restarting it is always safe; the attempts are
# bounded so that a failure that does not pass ends the job (exit 1) for the next run to retry.
# Heartbeats of 2 s with a 10 s timeout notice a killed TaskManager in about 10 s.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/jvm-archive.sh
source "$root/scripts/jvm-archive.sh"

# Java 17 closes the JDK internals that Flink 1.19 reaches into; these are the openings its own
# distribution passes (env.java.opts.all in its config.yaml).
JAVA_OPENS=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

classpath() {
  local cp="$root/scripts/flink/target/cluster.classpath"
  if [[ ! -s "$cp" || "$root/scripts/flink/pom.xml" -nt "$cp" ]]; then
    mvn -q -f "$root/scripts/flink/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cp" >&2
  fi
  cat "$cp"
}

# Prints "JVM-OPTIONS DYNAMIC-SETTINGS" (each with | for spaces) for a JobManager or TaskManager.
resources() {
  local cp="$1" dir="$2" what="$3"
  "$java" -cp "$cp" org.apache.flink.runtime.util.bash.BashJavaUtils "$what" --configDir "$dir/conf" \
    2> "$dir/resources.log" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tr ' ' '|' | paste -sd ' '
}

# Waits until the REST API answers with every TaskManager registered.
wait_ready() {
  local dir="$1" port
  port="$(cat "$dir/rest.port")"
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$port/taskmanagers" 2>/dev/null |
      python3 -c 'import json,sys; sys.exit(0 if len(json.load(sys.stdin)["taskmanagers"]) >= 2 else 1)' \
        2>/dev/null; then
      return 0
    fi
    sleep 1
  done
  echo "flink-session: the cluster in $dir did not come up; logs in $dir/*.log" >&2
  return 1
}

start() {
  local dir="$1"
  # The JVM of scripts/tilebeam: $JAVA_HOME/bin/java where JAVA_HOME is set, else the PATH's.
  # Picked here, not for every command: stopping a cluster needs no JVM.
  java="$(tilebeam_java)" || exit 2
  mkdir -p "$dir/conf" "$dir/tmp"
  dir="$(cd "$dir" && pwd)"
  local rest rpc cp
  rest="$(free_port)"
  rpc="$(free_port)"
  echo "$rest" > "$dir/rest.port"
  cat > "$dir/conf/flink-conf.yaml" <<CONF
jobmanager.rpc.address: 127.0.0.1
jobmanager.rpc.port: $rpc
jobmanager.bind-host: 127.0.0.1
jobmanager.memory.process.size: 1024m
rest.address: 127.0.0.1
rest.bind-address: 127.0.0.1
rest.port: $rest
taskmanager.host: 127.0.0.1
taskmanager.bind-host: 127.0.0.1
taskmanager.rpc.port: 0
taskmanager.data.port: 0
taskmanager.numberOfTaskSlots: 2
taskmanager.memory.process.size: 2048m
taskmanager.memory.managed.fraction: 0.15
parallelism.default: 2
# Slots are taken from both TaskManagers alike, so that losing either one costs the job.
taskmanager.load-balance.mode: SLOTS
io.tmp.dirs: $dir/tmp
blob.server.port: 0
heartbeat.interval: 2000
heartbeat.timeout: 10000
restart-strategy.type: fixed-delay
restart-strategy.fixed-delay.attempts: 3
restart-strategy.fixed-delay.delay: 5 s
CONF
  cp="$(classpath)"
  # Each process gets its own JVM, sized as Flink's own start scripts size it: BashJavaUtils turns
  # the memory settings above into JVM options and the resolved settings.
  local jm_jvm jm_dyn tm_jvm tm_dyn
  read -r jm_jvm jm_dyn < <(resources "$cp" "$dir" GET_JM_RESOURCE_PARAMS)
  read -r tm_jvm tm_dyn < <(resources "$cp" "$dir" GET_TM_RESOURCE_PARAMS)
  # shellcheck disable=SC2086  # the options are lists, split on spaces
  nohup "$java" "${JAVA_OPENS[@]}" ${jm_jvm//|/ } -cp "$cp" \
    org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
    --configDir "$dir/conf" ${jm_dyn//|/ } > "$dir/jobmanager.log" 2>&1 &
  echo $! > "$dir/jobmanager.pid"
  for n in 1 2; do
    # shellcheck disable=SC2086
    nohup "$java" "${JAVA_OPENS[@]}" ${tm_jvm//|/ } -cp "$cp" \
      org.apache.flink.runtime.taskexecutor.TaskManagerRunner \
      --configDir "$dir/conf" ${tm_dyn//|/ } > "$dir/taskmanager-$n.log" 2>&1 &
    echo $! > "$dir/taskmanager-$n.pid"
  done
  wait_ready "$dir"
  echo "flink-session: JobManager REST on 127.0.0.1:$rest, 2 TaskManagers (pids" \
    "$(cat "$dir/taskmanager-1.pid") $(cat "$dir/taskmanager-2.pid"))" >&2
}

stop() {
  local dir="$1"
  for f in "$dir"/taskmanager-*.pid "$dir"/jobmanager.pid; do
    [[ -f "$f" ]] || continue
    kill "$(cat "$f")" 2>/dev/null || true
  done
  sleep 1
  for f in "$dir"/taskmanager-*.pid "$dir"/jobmanager.pid; do
    [[ -f "$f" ]] || continue
    kill -9 "$(cat "$f")" 2>/dev/null || true
    rm -f "$f"
  done
}

command="${1:-}"
shift || true
case "$command" in
  start) start "$1" ;;
  master) echo "127.0.0.1:$(cat "$1/rest.port")" ;;
  kill-taskmanager)
    n="$2"
    if [[ "$n" == busy ]]; then
      # The TaskManager that has been handed the most tasks: killing it surely costs the job.
      n=1
      t1="$(grep -c 'switched from DEPLOYING to INITIALIZING' "$1/taskmanager-1.log" || true)"
      t2="$(grep -c 'switched from DEPLOYING to INITIALIZING' "$1/taskmanager-2.log" || true)"
      ((t2 > t1)) && n=2
    fi
    kill -9 "$(cat "$1/taskmanager-$n.pid")"
    echo "flink-session: killed TaskManager $n" >&2
    ;;
  stop) stop "$1" ;;
  run)
    job="$1"
    shift
    dir="$(mktemp -d)"
    trap 'stop "$dir"; rm -rf "$dir"' EXIT
    start "$dir"
    status=0
    "$root/scripts/tilebeam" run --job "$job" --runner=FlinkRunner \
      --flinkMaster="127.0.0.1:$(cat "$dir/rest.port")" "$@" || status=$?
    exit "$status"
    ;;
  *)
    sed -n '2,18p' "$0" >&2
    exit 2
    ;;
esac
