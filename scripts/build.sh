#!/usr/bin/env bash
# Builds the runnable jar (pipeline/target/tilebeam.jar) without running the tests, unless it is
# already newer than every source, POM and resource file.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=pipeline/target/tilebeam.jar
if [[ -f "$jar" && -z "$(find pom.xml codecs transforms io pipeline -newer "$jar" -type f \
      \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) \
      -not -path '*/target/*' -print -quit)" ]]; then
  exit 0
fi
mvn -B -q -DskipTests -Dspotless.check.skip=true -Dcheckstyle.skip=true install
