package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan --tiles-out} lists exactly the tiles of a job, checked against tiles computed here
 * independently with the textbook formulas of each matrix set: antimeridian-crossing, polar and
 * projected extents, three matrix sets.
 */
class PlanExactnessIT {

  @TempDir Path dir;

  private static final String SOURCE = TestJobs.SAMPLE_SOURCE;
  private static final String LAEA =
      Path.of("../transforms/src/test/resources/tms/laea-europe.json").toAbsolutePath().toString();

  private String layer(String name, String tms, String extents, int minZ, int maxZ) {
    return "  - name: "
        + name
        + "\n"
        + "    source: {uri: "
        + SOURCE
        + ", format: geojson}\n"
        + "    extents:\n"
        + extents
        + "    tileMatrixSet: "
        + tms
        + "\n"
        + "    zooms: ["
        + minZ
        + ", "
        + maxZ
        + "]\n"
        + "    targetCrs: EPSG:4326\n"
        + "    output: {uri: "
        + dir.resolve("out")
        + ", format: geojson}\n";
  }

  @Test
  void planListsExactlyTheTiles() throws Exception {
    String job =
        "namespace: exact\nlayers:\n"
            + layer(
                "wm",
                "WebMercatorQuad",
                "      - bbox: [170, -30, -170, 70]\n      - bbox: [-20, 80, 20, 90]\n",
                0,
                5)
            + layer("crs84", "WorldCRS84Quad", "      - bbox: [170, -90, -175, -60]\n", 0, 4)
            + layer(
                "laea",
                LAEA,
                "      - bbox: [3000000, 2000000, 4000000, 3000000]\n        crs: EPSG:3035\n",
                0,
                1);
    Path jobFile = dir.resolve("job.yaml");
    Files.writeString(jobFile, job);
    Path out = dir.resolve("tiles.jsonl");
    TestJobs.Result r = TestJobs.plan(jobFile, dir, out);
    assertEquals(ExitCode.OK, r.code(), r.err());
    Set<String> listed = new TreeSet<>();
    for (String line : Files.readAllLines(out)) {
      JsonNode o = new ObjectMapper().readTree(line);
      listed.add(o.get("layer").asText() + " " + o.get("z") + "/" + o.get("x") + "/" + o.get("y"));
    }

    Set<String> expected = new TreeSet<>();
    for (int z = 0; z <= 5; z++) {
      webMercator(expected, "wm", z, 170, 180, -30, 70);
      webMercator(expected, "wm", z, -180, -170, -30, 70);
      webMercator(expected, "wm", z, -20, 20, 80, 85.0511287798066);
    }
    for (int z = 0; z <= 4; z++) {
      crs84(expected, z, 170, 180, -90, -60);
      crs84(expected, z, -180, -175, -90, -60);
    }
    // LAEA: origin E 2 000 000, N 5 500 000; 1 024 000 m tiles at z0, 512 000 m at z1.
    for (int z = 0; z <= 1; z++) {
      double span = 1_024_000.0 / (1 << z);
      range(
          expected,
          "laea",
          z,
          (3_000_000 - 2_000_000) / span,
          (4_000_000 - 2_000_000) / span,
          (5_500_000 - 3_000_000) / span,
          (5_500_000 - 2_000_000) / span);
    }
    assertEquals(true, expected.size() > 100, "the job is not trivial: " + expected.size());
    assertEquals(expected, listed);
  }

  private static void webMercator(
      Set<String> out, String layer, int z, double w, double e, double s, double n) {
    double size = 1 << z;
    range(
        out,
        layer,
        z,
        (w + 180) / 360 * size,
        (e + 180) / 360 * size,
        mercY(n, size),
        mercY(s, size));
  }

  private static double mercY(double lat, double size) {
    double r = Math.toRadians(lat);
    return (1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2 * size;
  }

  private static void crs84(Set<String> out, int z, double w, double e, double s, double n) {
    double span = 180.0 / (1 << z);
    range(out, "crs84", z, (w + 180) / span, (e + 180) / span, (90 - n) / span, (90 - s) / span);
  }

  /** Tiles whose interior meets [x0, x1] × [y0, y1] in tile units (edges rounded at 1e-9). */
  private static void range(
      Set<String> out, String layer, int z, double x0, double x1, double y0, double y1) {
    for (long x = (long) Math.floor(x0 + 1e-9); x < Math.ceil(x1 - 1e-9); x++) {
      for (long y = (long) Math.floor(y0 + 1e-9); y < Math.ceil(y1 - 1e-9); y++) {
        out.add(layer + " " + z + "/" + x + "/" + y);
      }
    }
  }
}
