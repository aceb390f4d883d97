package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GeoParquet written by an independent writer (the npm package hyparquet-writer: dictionary pages,
 * Snappy, a bbox covering struct): the same features as the GeoJSON it was made from; row groups
 * that meet no claimed tile skipped unread, by their covering statistics; the CRS from the geo
 * metadata; and what is not GeoParquet tilebeam reads refused, naming why.
 */
class GeoParquetSourceTest {

  private static final Path SAMPLE = Path.of("../src/samples/islands.geojson").toAbsolutePath();

  @TempDir Path dir;

  /** {@code input} written as GeoParquet with {@code rows} rows a row group. */
  private Path write(Path input, String name, int rows, String... epsg) throws Exception {
    Path out = dir.resolve(name);
    List<String> args = new ArrayList<>(List.of(input.toString(), out.toString(), "" + rows));
    args.addAll(List.of(epsg));
    NodeScripts.run(
        GeoParquetSourceTest.class, "write-geoparquet.mjs", dir, args.toArray(String[]::new));
    return out;
  }

  private static SplitSource resolve(Path file, String idColumn) throws IOException {
    SourceOptions options = new SourceOptions(idColumn, null, null, null, null, null, null);
    return (SplitSource)
        SourceFormats.named("geoparquet").orElseThrow().resolve(file.toString(), options, null);
  }

  /** Features by id, each as hex WKB and properties. */
  private static Map<String, String> byId(List<Feature> features) {
    Map<String, String> out = new TreeMap<>();
    for (Feature f : features) {
      out.put(f.id(), HexFormat.of().formatHex(f.wkb()) + " " + f.properties());
    }
    return out;
  }

  private static List<Feature> readAll(SplitSource source) throws Exception {
    List<Feature> out = new ArrayList<>();
    try (SplitReader reader = source.open(null)) {
      for (SourceSplit split : source.splits("islands")) {
        reader.forEach(split, out::add, bad -> assertFalse(true, bad.toString()));
      }
    }
    return out;
  }

  @Test
  void anIndependentWritersFileHoldsTheSameFeaturesAsItsGeoJson() throws Exception {
    SplitSource source = resolve(write(SAMPLE, "islands.parquet", 5), "id");
    assertEquals("OGC:CRS84", source.declaredCrs(), "no crs member: CRS84");
    assertEquals(3, source.splits("islands").size(), "one split per row group (5 + 5 + 2)");
    List<Feature> geoJson = new ArrayList<>();
    new GeoJsonSource(new SourceFile.Local(SAMPLE.toString()))
        .forEach(geoJson::add, bad -> assertFalse(true, bad.toString()));
    Map<String, String> expected = byId(geoJson);
    assertEquals(12, expected.size());
    assertEquals(expected, byId(readAll(source)));
    assertTrue(source.identity().startsWith("sha256:"), source.identity());
  }

  /**
   * In Google Cloud Storage (the in-process {@link io.tilebeam.io.sink.GcsStandIn}, spoken to by
   * the real client): the same features as the local file, read by ranged requests pinned to the
   * generation planned; a row group skipped costs no request.
   */
  @Test
  void aGcsObjectIsReadByRangesPinnedToItsGeneration() throws Exception {
    Path file = write(SAMPLE, "islands.parquet", 5);
    try (io.tilebeam.io.sink.GcsStandIn server = io.tilebeam.io.sink.GcsStandIn.start()) {
      server.upload("data", "islands.parquet", Files.readAllBytes(file));
      io.tilebeam.io.storage.GcsSettings settings = server.settings();
      SourceOptions options = new SourceOptions("id", null, null, null, null, null, null);
      SplitSource remote =
          (SplitSource)
              SourceFormats.named("geoparquet")
                  .orElseThrow()
                  .resolve(
                      "gs://data/islands.parquet",
                      options,
                      io.tilebeam.io.storage.Stores.of(settings));
      assertTrue(remote.identity().startsWith("gcs:"), remote.identity());
      int before = server.requests().size();
      assertEquals(byId(readAll(resolve(file, "id"))), byId(readAll(remote)));
      List<String> reads = server.requests().subList(before, server.requests().size());
      assertTrue(reads.stream().allMatch(q -> q.contains("generation=")), reads.toString());

      // Every row group refused: only the footer is read.
      int beforeSkip = server.requests().size();
      try (SplitReader reader = remote.open(null)) {
        for (SourceSplit split : remote.splits("islands")) {
          reader.forEach(split, box -> false, f -> assertFalse(true), bad -> assertFalse(true));
        }
      }
      List<String> skipped = server.requests().subList(beforeSkip, server.requests().size());
      assertTrue(skipped.size() <= 3, "the footer only: " + skipped);
    }
  }

  /**
   * Gzip and Brotli pages are read; LZO pages, which tilebeam does not read, are refused when the
   * job is planned (the codec is in the footer), naming the column and the codec.
   */
  @Test
  void gzipAndBrotliAreReadAndACodecNotReadIsRefusedAtPlanning() throws Exception {
    var snappy = byId(readAll(resolve(write(SAMPLE, "snappy.parquet", 5), "id")));
    for (String codec : new String[] {"GZIP", "BROTLI"}) {
      Path file = dir.resolve(codec + ".parquet");
      NodeScripts.run(
          GeoParquetSourceTest.class,
          "write-geoparquet.mjs",
          dir,
          SAMPLE.toString(),
          file.toString(),
          "5",
          "",
          codec);
      assertEquals(snappy, byId(readAll(resolve(file, "id"))), codec);
    }
    Path lzo = dir.resolve("lzo.parquet");
    NodeScripts.run(
        GeoParquetSourceTest.class,
        "write-geoparquet.mjs",
        dir,
        SAMPLE.toString(),
        lzo.toString(),
        "5",
        "",
        "LZO");
    SourceFieldException e = assertThrows(SourceFieldException.class, () -> resolve(lzo, "id"));
    assertEquals("uri", e.field());
    assertTrue(e.getMessage().contains("compressed with LZO"), e.getMessage());
  }

  @Test
  void theCrsComesFromTheGeoMetadata() throws Exception {
    Path seq = dir.resolve("m.geojsonl");
    Files.writeString(
        seq,
        "{\"type\":\"Feature\",\"properties\":{\"n\":1},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[1000000,2000000]}}\n");
    assertEquals("EPSG:3857", resolve(write(seq, "m.parquet", 10, "3857"), null).declaredCrs());
  }

  /**
   * 10,000 squares of one degree in rows of latitude, 500 rows a row group (20 groups, each a band
   * of latitudes): the claimed tiles of a small extent (around Bern, zooms 8-10) meet the covering
   * box of one row group; the others are skipped unread.
   */
  @Test
  void rowGroupsThatMeetNoClaimedTileAreSkippedUnread() throws Exception {
    Path seq = dir.resolve("grid.geojsonl");
    StringBuilder text = new StringBuilder();
    int n = 0;
    for (int lat = -50; lat < 50; lat++) {
      for (int lon = -50; lon < 50; lon++) {
        text.append(
            String.format(
                "{\"type\":\"Feature\",\"id\":\"c%d\",\"properties\":{\"n\":%d},\"geometry\":"
                    + "{\"type\":\"Polygon\",\"coordinates\":[[[%d,%d],[%d,%d],[%d,%d],[%d,%d],[%d,%d]]]}}%n",
                n, n, lon, lat, lon + 1, lat, lon + 1, lat + 1, lon, lat + 1, lon, lat));
        n++;
      }
    }
    Files.writeString(seq, text);
    SplitSource source = resolve(write(seq, "grid.parquet", 500), "id");
    assertEquals(20, source.splits("grid").size());

    CutSpec spec =
        new CutSpec(CrsRef.of("OGC:CRS84"), TileMatrixSet.webMercatorQuad(), 8, 10, 8, 0);
    FeatureCutter cutter = new FeatureCutter(spec);
    // Tiles around Bern (7.4°E, 46.9°N) at zooms 8-10.
    TileFilter bern =
        new TileFilter() {
          @Override
          public boolean wantsColumn(int z, long x) {
            long c = (long) ((7.4 + 180) / 360 * (1L << z));
            return x == c;
          }

          @Override
          public boolean wants(int z, long x, long y) {
            double lat = Math.toRadians(46.9);
            long r =
                (long)
                    ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2 * (1L << z));
            return wantsColumn(z, x) && y == r;
          }
        };
    List<Feature> read = new ArrayList<>();
    int[] asked = {0};
    try (SplitReader reader = source.open(null)) {
      for (SourceSplit split : source.splits("grid")) {
        reader.forEach(
            split,
            box -> {
              asked[0]++;
              return cutter.mayMeet(box, bern);
            },
            read::add,
            bad -> assertFalse(true, bad.toString()));
      }
    }
    assertEquals(20, asked[0], "every row group's box was looked at");
    // Latitudes 45-49 are rows 9,500-9,999: the last row group alone.
    assertEquals(500, read.size(), "one row group of 20 read");
    assertTrue(read.stream().allMatch(f -> Integer.parseInt(f.id().substring(1)) >= 9500));
    assertTrue(cutter.mayMeet(new Bounds(7, 46, 8, 47), bern));
    assertFalse(cutter.mayMeet(new Bounds(-50, 30, 50, 35), bern));
    // Too many tiles to look at one by one: it may meet.
    assertTrue(cutter.mayMeet(new Bounds(-50, -50, 50, 40), bern));
  }

  @Test
  void whatIsNotGeoParquetTilebeamReadsIsRefusedNamingWhy() throws Exception {
    Path good = write(SAMPLE, "good.parquet", 100);
    byte[] bytes = Files.readAllBytes(good);
    for (int keep : new int[] {bytes.length - 1, bytes.length / 2, 7}) {
      Path cut = dir.resolve("cut-" + keep + ".parquet");
      Files.write(cut, java.util.Arrays.copyOf(bytes, keep));
      SourceFieldException e = assertThrows(SourceFieldException.class, () -> resolve(cut, null));
      assertEquals("uri", e.field());
      assertTrue(e.getMessage().contains("not a Parquet file"), e.getMessage());
    }
    SourceFieldException noId =
        assertThrows(SourceFieldException.class, () -> resolve(good, "ident"));
    assertEquals("idColumn", noId.field());
    assertTrue(noId.getMessage().contains("no such column"), noId.getMessage());
    // The geo metadata's key renamed: a plain Parquet file.
    Path plain = dir.resolve("plain.parquet");
    byte[] renamed = bytes.clone();
    // The key as the footer holds it: its length (3), then its bytes.
    int at = indexOf(renamed, new byte[] {3, 'g', 'e', 'o'}, 0);
    renamed[at + 1] = 'x';
    Files.write(plain, renamed);
    SourceFieldException e = assertThrows(SourceFieldException.class, () -> resolve(plain, null));
    assertTrue(e.getMessage().contains("without GeoParquet's geo metadata"), e.getMessage());
  }

  private static int indexOf(byte[] hay, byte[] needle, int from) {
    for (int i = Math.max(0, from); i <= hay.length - needle.length; i++) {
      if (java.util.Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }
}
