package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.codec.pmtiles.PmtilesReader;
import io.tilebeam.codec.pmtiles.ReferenceReader;
import io.tilebeam.io.format.MvtFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Layers published as PMTiles archives, end to end: the tiles are staged and packed into {@code
 * <output>/<layer>.pmtiles}, which the npm reference reader reads tile for tile equal to the staged
 * tiles (empty vector tiles left out); an ocean of identical tiles is stored once; a rerun with
 * nothing changed leaves the archives' bytes and mtimes alone; a changed source repacks; what an
 * archive cannot hold is refused before anything is written.
 */
class PmtilesLayerIT {

  @TempDir Path dir;

  /**
   * The sample's islands as MVT in an archive, and an ocean polygon at zooms 0-5 (its edges broken
   * at 0°: a step of more than 180° is read as crossing the antimeridian).
   */
  private Path job(Path home, Path islands) throws Exception {
    Path ocean = home.resolve("ocean.geojson");
    Files.writeString(
        ocean,
        "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"sea\","
            + "\"properties\":{\"kind\":\"ocean\",\"depth\":4000,\"salt\":true},"
            + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
            + "[[[-170,-80],[0,-80],[170,-80],[170,80],[0,80],[-170,80],[-170,-80]]]}}]}");
    Path out = home.resolve("out");
    String text =
        "namespace: pmtiles-test\nlayers:\n"
            + layer("islands", islands, 0, 4, out)
            + layer("ocean", ocean, 0, 5, out);
    Path job = home.resolve("job.yaml");
    Files.writeString(job, text);
    return job;
  }

  private static String layer(String name, Path source, int minZoom, int maxZoom, Path out) {
    return "  - name: "
        + name
        + "\n    source: {uri: "
        + source
        + ", format: geojson}\n"
        + "    extents: [{bbox: [-180, -85, 180, 85]}]\n"
        + "    tileMatrixSet: WebMercatorQuad\n"
        + "    zooms: ["
        + minZoom
        + ", "
        + maxZoom
        + "]\n"
        + "    targetCrs: EPSG:3857\n"
        + "    output: {uri: "
        + out
        + ", format: pmtiles}\n";
  }

  private static TestJobs.Result run(Path home, Path job) {
    TestJobs.Result r =
        TestJobs.execute("run", "--job", job.toString(), "--home", home.resolve("h").toString());
    assertEquals(ExitCode.OK, r.code(), r.err());
    return r;
  }

  /** The staged tiles of a layer by "z/x/y", empty ones (no feature) as null. */
  private static Map<String, byte[]> staged(Path out, String layer) throws Exception {
    Path root = out.resolve("_staging").resolve(layer);
    Map<String, byte[]> tiles = new LinkedHashMap<>();
    MvtFormat mvt = new MvtFormat();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(f -> f.toString().endsWith(".mvt")).sorted().toList()) {
        String zxy = root.relativize(p).toString().replace(".mvt", "");
        byte[] bytes = Files.readAllBytes(p);
        tiles.put(zxy, mvt.countFeatures(bytes) > 0 ? bytes : null);
      }
    }
    return tiles;
  }

  @Test
  void layersArePackedReadByTheReferenceReaderAndLeftAloneByARerun() throws Exception {
    Path home = Files.createDirectories(dir.resolve("run"));
    Path islands = home.resolve("islands.geojson");
    Files.copy(Path.of("..", "src", "samples", "islands.geojson"), islands);
    Path job = job(home, islands);
    TestJobs.Result first = run(home, job);
    Path out = home.resolve("out");
    assertTrue(first.out().contains("islands.pmtiles written"), first.out());
    assertTrue(first.out().contains("ocean.pmtiles written"), first.out());

    Map<String, byte[]> islandTiles = staged(out, "islands");
    assertEquals(1 + 4 + 16 + 64 + 256, islandTiles.size(), "every planned tile staged");
    JsonNode read = ReferenceReader.read(out.resolve("islands.pmtiles"), islandTiles, home);
    assertEquals(islandTiles.size(), read.get("same").asLong(), read.toString());
    long held = islandTiles.values().stream().filter(b -> b != null).count();
    assertTrue(held > 10 && held < islandTiles.size(), "empty tiles left out: " + held);
    assertEquals(held, read.get("addressed").asLong(), read.toString());
    assertEquals(1, read.get("tileType").asInt());
    assertEquals(0, read.get("minZoom").asInt());
    assertEquals(4, read.get("maxZoom").asInt());
    JsonNode metadata = read.get("metadata");
    assertEquals("islands", metadata.get("name").asText(), metadata.toString());
    JsonNode fields = metadata.at("/vector_layers/0/fields");
    assertEquals("islands", metadata.at("/vector_layers/0/id").asText(), metadata.toString());
    assertEquals("String", fields.get("name").asText(), metadata.toString());
    assertEquals("Number", fields.get("population").asText(), metadata.toString());
    assertTrue(metadata.at("/tilebeam/pack_key").asText().startsWith("sha256:"));

    Map<String, byte[]> oceanTiles = staged(out, "ocean");
    JsonNode sea = ReferenceReader.read(out.resolve("ocean.pmtiles"), oceanTiles, home);
    assertEquals(oceanTiles.size(), sea.get("same").asLong(), sea.toString());
    assertTrue(
        sea.get("contents").asLong() * 4 < sea.get("addressed").asLong(),
        "the ocean's identical tiles are stored once: " + sea);
    assertEquals("Boolean", sea.at("/metadata/vector_layers/0/fields/salt").asText());

    // Nothing changed: nothing written, the archives' bytes and mtimes kept.
    FileTime past = FileTime.fromMillis(1_000_000_000_000L);
    Map<String, byte[]> bytes = new LinkedHashMap<>();
    for (String name : List.of("islands.pmtiles", "ocean.pmtiles")) {
      Files.setLastModifiedTime(out.resolve(name), past);
      bytes.put(name, Files.readAllBytes(out.resolve(name)));
    }
    TestJobs.Result again = run(home, job);
    assertTrue(again.out().contains("islands.pmtiles unchanged"), again.out());
    assertTrue(again.out().contains("ocean.pmtiles unchanged"), again.out());
    for (String name : bytes.keySet()) {
      assertArrayEquals(bytes.get(name), Files.readAllBytes(out.resolve(name)), name);
      assertEquals(past, Files.getLastModifiedTime(out.resolve(name)), name);
    }

    // One feature changed: that layer's tiles are made again and its archive repacked.
    Files.writeString(islands, Files.readString(islands).replace("\"Iceland\"", "\"Ísland\""));
    TestJobs.Result changed = run(home, job);
    assertTrue(changed.out().contains("islands.pmtiles written"), changed.out());
    assertTrue(changed.out().contains("ocean.pmtiles unchanged"), changed.out());
    assertNotEquals(
        new ObjectMapper().readTree(metadataOf(out.resolve("islands.pmtiles"))).at("/tilebeam"),
        metadata.get("tilebeam"));
    JsonNode reread =
        ReferenceReader.read(out.resolve("islands.pmtiles"), staged(out, "islands"), home);
    assertEquals(islandTiles.size(), reread.get("same").asLong(), reread.toString());
    assertArrayEquals(bytes.get("ocean.pmtiles"), Files.readAllBytes(out.resolve("ocean.pmtiles")));
  }

  private static String metadataOf(Path archive) throws Exception {
    try (PmtilesReader r = PmtilesReader.open(archive)) {
      return r.metadata();
    }
  }

  @Test
  void whatAnArchiveCannotHoldIsRefusedBeforeAnythingIsWritten() throws Exception {
    Path home = Files.createDirectories(dir.resolve("bad"));
    Path islands = Path.of("..", "src", "samples", "islands.geojson").toAbsolutePath();
    String base = layer("islands", islands, 0, 2, home.resolve("out"));
    for (String[] bad :
        new String[][] {
          {
            base.replace("WebMercatorQuad", "WorldCRS84Quad").replace("EPSG:3857", "EPSG:4326"),
            "layers[0].tileMatrixSet",
            "pmtiles output needs WebMercatorQuad"
          },
          {
            base.replace("format: pmtiles}", "format: pmtiles, tiles: geojson}"),
            "layers[0].output.tiles",
            "a pmtiles archive holds tiles of one of"
          },
          {
            base.replace("format: pmtiles}", "format: mvt, tiles: mvt}"),
            "layers[0].output.tiles",
            "names the tiles inside a pmtiles archive"
          },
          {
            base.replace("format: pmtiles}", "format: pmtiles, tiles: png}"),
            "layers[0].output.tiles",
            "png output needs a raster source"
          },
        }) {
      Path job = home.resolve("job.yaml");
      Files.writeString(job, "namespace: pmtiles-bad\nlayers:\n" + bad[0]);
      TestJobs.Result r =
          TestJobs.execute("run", "--job", job.toString(), "--home", home.resolve("h").toString());
      assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
      assertTrue(r.err().contains(bad[1]), r.err());
      assertTrue(r.err().contains(bad[2]), r.err());
      assertTrue(!Files.exists(home.resolve("out")), "nothing written");
    }
  }
}
