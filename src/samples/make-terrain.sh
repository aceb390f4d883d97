#!/usr/bin/env bash
# Remakes src/samples/terrain.tif, the sample job's raster source, as it was made: a seeded 240 x 160
# grid of 250 m cells in UTM zone 32N (EPSG:32632) over the Swiss Plateau, 16-bit, with a block of
# no data (-9999), written as a Cloud Optimized GeoTIFF by GDAL. The file is kept in the repository,
# so running the sample needs no GDAL; this script says what it is.
set -euo pipefail
cd "$(dirname "$0")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work/terrain.asc" <<'PY'
import math, random, sys
rnd = random.Random(11)
nx, ny = 240, 160
with open(sys.argv[1], "w") as f:
    f.write("ncols %d\nnrows %d\nxllcorner 400000\nyllcorner 5200000\ncellsize 250\nNODATA_value -9999\n" % (nx, ny))
    for j in range(ny):
        row = []
        for i in range(nx):
            if 100 < i < 130 and 60 < j < 80:
                row.append(-9999)
            else:
                row.append(int(800 + 600 * math.sin(i / 19.0) * math.cos(j / 13.0)
                               + 300 * math.sin((i + j) / 41.0) + rnd.randint(0, 9)))
        f.write(" ".join(map(str, row)) + "\n")
PY
gdal_translate -q -a_srs EPSG:32632 -ot Int16 -of COG -co COMPRESS=DEFLATE -co PREDICTOR=2 \
  "$work/terrain.asc" terrain.tif
