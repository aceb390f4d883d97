# Sourced by scripts/tilebeam and scripts/bench/warm-up.sh: where the class data sharing archive of
# the JVM on the PATH lives beside the shaded jar.
#
# An archive belongs to the JVM build that made it: another one (a JDK update, another java on the
# PATH) refuses it, without a word since the launcher turns the CDS log off, and would start without
# one for good. So each build has its own, named after its libjvm.so (path, size, time).

# Prints the archive's path for the jar under $1 (the repository root); fails without a java.
jvm_archive() {
  local java_path libjvm build
  java_path="$(command -v java)" || return 1
  java_path="$(readlink -f "$java_path")"
  libjvm="$(dirname "$java_path")/../lib/server/libjvm.so"
  [[ -f "$libjvm" ]] || libjvm="$java_path"
  build="$(stat -L -c '%n %s %Y' "$libjvm" | cksum | cut -d ' ' -f 1)"
  echo "$1/pipeline/target/tilebeam-jvm$build.jsa"
}
