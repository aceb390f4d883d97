package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tilebeam.io.source.Gdal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run writes only its output, its ledger home and its report: a raster job (the shipped terrain
 * in UTM, and a copy in the Swiss CRS EPSG:2056, whose definition SIS reads from its EPSG database,
 * which starts Derby) run by a fresh JVM in an empty directory leaves exactly {@code .tilebeam},
 * {@code out} and {@code report.json} there; Derby's {@code derby.log} is not among them.
 */
@Tag("slow")
class NothingOutsideItsPlacesIT {

  @TempDir Path dir;

  @Test
  void aRasterRunInAnEmptyDirectoryLeavesOnlyItsOutputLedgerAndReport() throws Exception {
    Path terrain = Path.of("..", "src", "samples", "terrain.tif").toAbsolutePath().normalize();
    Path swiss = dir.resolve("swiss.tif");
    Gdal.run("gdalwarp", "-q", "-t_srs", "EPSG:2056", terrain.toString(), swiss.toString());
    Path job = dir.resolve("job.yaml");
    Files.writeString(
        job,
        "namespace: nothing-outside\nlayers:\n"
            + layer("terrain", terrain)
            + layer("swiss", swiss));
    Path work = Files.createDirectories(dir.resolve("work"));
    Path log = dir.resolve("run.log");
    Process p =
        TestJobs.start(
            work, log, Map.of(), "run", "--job", job.toString(), "--report", "report.json");
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the run did not end: " + Files.readString(log));
    }
    assertEquals(0, p.exitValue(), Files.readString(log));
    try (Stream<Path> s = Files.list(work)) {
      assertEquals(
          List.of(".tilebeam", "out", "report.json"),
          s.map(f -> f.getFileName().toString()).sorted().toList());
    }
  }

  private static String layer(String name, Path source) {
    return "  - name: "
        + name
        + "\n    source: {uri: "
        + source
        + ", format: geotiff}\n"
        + "    extents: [{bbox: [7.7, 46.96, 8.47, 47.3]}]\n"
        + "    tileMatrixSet: WebMercatorQuad\n    zooms: [9, 10]\n"
        + "    targetCrs: EPSG:3857\n"
        + "    output: {uri: out/, format: geotiff}\n";
  }
}
