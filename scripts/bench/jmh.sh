#!/usr/bin/env bash
# Builds the transforms module with its test classes and runs one of its JMH benchmarks on one
# thread. Usage: scripts/bench/jmh.sh CLASS [JMH arguments]   (CLASS under io.tilebeam.transforms.bench)
set -euo pipefail
cd "$(dirname "$0")/../.."
benchmark="$1"
shift
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install -pl transforms -am
mvn -B -q test-compile -pl transforms
mvn -B -q dependency:build-classpath -pl transforms -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/transforms/target/bench.classpath"
cp="transforms/target/test-classes:transforms/target/classes:$(cat transforms/target/bench.classpath)"
java -cp "$cp" org.openjdk.jmh.Main "io.tilebeam.transforms.bench.$benchmark" -t 1 "$@"
