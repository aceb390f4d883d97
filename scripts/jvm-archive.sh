# Sourced by scripts/tilebeam and scripts/bench/warm-up.sh: where the class data sharing archive of
# the shaded jar for the JVM on the PATH lives, and whether a run may record it.
#
# An archive belongs to the JVM build that made it: another one (a JDK update, another java on the
# PATH) refuses it, without a word since the launcher turns the CDS log off, and would start without
# one for good. So each build has its own, named after the jar's path and its libjvm.so (path,
# size, time). It lives beside the jar, or in $TILEBEAM_CDS_DIR (for an installation whose jar
# directory its users cannot write).

# Prints the archive's path for the jar under $1 (the repository root); fails without a java.
jvm_archive() {
  local java_path libjvm jvm
  java_path="$(command -v java)" || return 1
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
