# Sourced by scripts/tilebeam and scripts/bench/warm-up.sh: which java runs the shaded jar, where
# the class data sharing archive of the jar for that JVM lives, and whether a run may record it.
#
# An archive belongs to the JVM build that made it: another one (a JDK update, another JAVA_HOME or
# java on the PATH) refuses it, without a word since the launcher turns the CDS log off, and would
# start without one for good. So each build has its own, named after the jar's path and its
# libjvm.so (path, size, time). It lives beside the jar, or in $TILEBEAM_CDS_DIR (for an
# installation whose jar directory its users cannot write).

# Prints the java that runs the jar: $JAVA_HOME/bin/java where JAVA_HOME is set (as for Maven),
# else the one on the PATH; fails, saying why on stderr, when there is none.
tilebeam_java() {
  if [[ -n "${JAVA_HOME:-}" ]]; then
    if [[ ! -x "$JAVA_HOME/bin/java" ]]; then
      echo "tilebeam: JAVA_HOME is $JAVA_HOME, which has no bin/java (unset it to use the PATH's)" >&2
      return 1
    fi
    echo "$JAVA_HOME/bin/java"
  elif ! command -v java; then
    echo "tilebeam: no java on the PATH: install Java 17 or newer, or set JAVA_HOME" >&2
    return 1
  fi
}

# Prints the archive's path for the jar under $1 (the repository root) and the java $2 (default
# tilebeam_java's); fails without a java.
jvm_archive() {
  local java_path libjvm jvm
  java_path="${2:-$(tilebeam_java)}" || return 1
  java_path="$(readlink -f "$java_path")"
  libjvm="$(dirname "$java_path")/../lib/server/libjvm.so"
  [[ -f "$libjvm" ]] || libjvm="$java_path"
  jvm="$(stat -L -c '%n %s %Y' "$libjvm" | cksum | cut -d ' ' -f 1)"
  echo "${TILEBEAM_CDS_DIR:-$1/pipeline/target}/$(jvm_archive_prefix "$1")$jvm.jsa"
}

# The start of the names of the archives of the jar under $1, whatever their JVM build.
jvm_archive_prefix() {
  echo "tilebeam-$(realpath -m "$1" | cksum | cut -d ' ' -f 1)-jvm"
}

# Whether archive $1 can be recorded: its directory made and writable, with room for it (about
# 110 MB) and more. The JVM writes it at exit and, when it cannot, exits with status 1 after a run
# that succeeded: a read-only installation would fail every run.
jvm_archive_writable() {
  local dir
  dir="$(dirname "$1")"
  mkdir -p "$dir" 2> /dev/null || return 1
  [[ -w "$dir" ]] || return 1
  (($(df --output=avail -k "$dir" | tail -n 1) > 512 * 1024))
}
