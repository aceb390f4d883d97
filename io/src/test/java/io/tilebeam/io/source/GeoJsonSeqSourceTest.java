package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.GcsStandIn;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeoJsonSeqSourceTest {

  @TempDir Path dir;

  private static final List<String> FEATURES =
      List.of(
          "{\"type\":\"Feature\",\"id\":1,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},"
              + "\"properties\":{\"name\":\"a\"}}",
          "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[0,0],[3,4]]},"
              + "\"properties\":{\"b\":[1,2]}}",
          "{\"type\":\"Feature\",\"id\":\"x\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
              + "[[[0,0],[1,0],[1,1],[0,0]]]},\"properties\":null}");

  /** Records in every spelling a writer uses: RS prefixes, CRLF, blank lines, no final newline. */
  private Path sequence() throws IOException {
    String text =
        "\u001e"
            + FEATURES.get(0)
            + "\r\n\n"
            + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,\n"
            + "   \n"
            + FEATURES.get(1)
            + "\n"
            + "{\"type\":\"FeatureCollection\",\"features\":[]}\n"
            + "\u001e"
            + FEATURES.get(2);
    Path file = dir.resolve("features.geojsonseq");
    Files.writeString(file, text);
    return file;
  }

  private record Read(List<Feature> features, List<BadFeature> bad) {}

  private static Read read(Path file, long splitBytes) throws IOException {
    List<Feature> features = new ArrayList<>();
    List<BadFeature> bad = new ArrayList<>();
    GeoJsonSeqSource source = new GeoJsonSeqSource(file);
    for (GeoJsonSeqSource.Range r : GeoJsonSeqSource.split(Files.size(file), splitBytes)) {
      source.forEach(r, features::add, bad::add);
    }
    return new Read(features, bad);
  }

  @Test
  void readsTheSameFeaturesAsTheEquivalentFeatureCollection() throws IOException {
    Path collection = dir.resolve("features.geojson");
    Files.writeString(
        collection,
        "{\"type\":\"FeatureCollection\",\"features\":[" + String.join(",", FEATURES) + "]}");
    List<Feature> expected = new ArrayList<>();
    new GeoJsonSource(collection).forEach(expected::add, b -> {});
    assertEquals(expected, read(sequence(), GeoJsonSeqSource.SPLIT_BYTES).features());
  }

  /** Whatever the split size, every record is read exactly once and in order. */
  @Test
  void everySplitSizeReadsEachRecordExactlyOnce() throws IOException {
    Path file = sequence();
    Read whole = read(file, Files.size(file));
    assertEquals(3, whole.features().size());
    assertEquals(2, whole.bad().size());
    for (long split = 1; split <= Files.size(file); split++) {
      Read parts = read(file, split);
      assertEquals(whole.features(), parts.features(), "split " + split);
      assertEquals(whole.bad(), parts.bad(), "split " + split);
    }
  }

  /** Records longer than the reader's 64 KiB block, split anywhere, each read exactly once. */
  @Test
  void recordsLongerThanABlockAreReadWholeInEverySplit() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      text.append("{\"type\":\"Feature\",\"id\":")
          .append(i)
          .append(",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},")
          .append("\"properties\":{\"note\":\"")
          .append(String.valueOf((char) ('a' + i)).repeat(150_000 + 7 * i))
          .append("\"}}\n");
    }
    Path file = dir.resolve("long.geojsonseq");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    Read whole = read(file, Files.size(file));
    assertEquals(5, whole.features().size());
    assertTrue(whole.bad().isEmpty(), whole.bad().toString());
    assertTrue(whole.features().get(4).properties().contains("e".repeat(150_028)));
    for (long split : new long[] {1_000, 65_536, 65_537, 150_000, 400_000}) {
      assertEquals(whole, read(file, split), "split " + split);
    }
  }

  @Test
  void aBadRecordCostsItselfAndSaysWhereItIs() throws IOException {
    Path file = sequence();
    List<BadFeature> bad = read(file, 7).bad();
    long corruptAt =
        Files.readString(file, StandardCharsets.UTF_8)
            .indexOf("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\"");
    assertEquals("record at byte " + corruptAt, bad.get(0).featureId());
    assertTrue(bad.get(0).reason().startsWith("corrupt JSON in " + file), bad.get(0).reason());
    assertTrue(bad.get(1).reason().contains("not a Feature"), bad.get(1).reason());
  }

  /**
   * A record with a string past the default {@link JsonLimits#maxStringChars}, and one longer than
   * the default {@link JsonLimits#maxRecordBytes} (skipped without being held), each cost only
   * themselves, with their byte offsets; the records around them are read.
   */
  @Test
  void recordsPastAReadingLimitCostOnlyThemselves() throws IOException {
    Path file = dir.resolve("limits.geojsonseq");
    String longString =
        "{\"type\":\"Feature\",\"properties\":{\"note\":\""
            + "x".repeat(JsonLimits.DEFAULT.maxStringChars() + 1)
            + "\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}\n";
    long longStringAt = FEATURES.get(0).length() + 1;
    long longLineAt = longStringAt + longString.length();
    try (java.io.OutputStream out =
        new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
      out.write((FEATURES.get(0) + "\n").getBytes(StandardCharsets.UTF_8));
      out.write(longString.getBytes(StandardCharsets.UTF_8));
      out.write(
          "{\"type\":\"Feature\",\"properties\":{\"pad\":\"".getBytes(StandardCharsets.UTF_8));
      byte[] pad = new byte[1 << 20];
      java.util.Arrays.fill(pad, (byte) 'y');
      for (long n = 0; n <= JsonLimits.DEFAULT.maxRecordBytes(); n += pad.length) {
        out.write(pad);
      }
      out.write("\"},\"geometry\":null}\n".getBytes(StandardCharsets.UTF_8));
      out.write((FEATURES.get(2) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    Read r = read(file, GeoJsonSeqSource.SPLIT_BYTES);

    assertEquals(List.of("1", "x"), r.features().stream().map(Feature::id).toList());
    assertEquals(
        List.of("record at byte " + longStringAt, "record at byte " + longLineAt),
        r.bad().stream().map(BadFeature::featureId).toList());
    assertTrue(
        r.bad().get(0).reason().startsWith("exceeds a reading limit: String length ("),
        r.bad().get(0).reason());
    assertEquals(
        "longer than "
            + JsonLimits.DEFAULT.maxRecordBytes()
            + " bytes, the most tilebeam reads as one"
            + " record; skipped unread",
        r.bad().get(1).reason());
  }

  /** A GCS object, pinned to its generation, read in ranges through the real client. */
  @Test
  void aGcsObjectReadsInRangesLikeTheLocalFile() throws Exception {
    Path file = sequence();
    Read local = read(file, Files.size(file));
    try (GcsStandIn server = GcsStandIn.start()) {
      server.createBucket("sources");
      GcsSettings settings = new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT);
      Storage storage = settings.open();
      storage.create(
          BlobInfo.newBuilder(BlobId.of("sources", "a/features.geojsonseq")).build(),
          Files.readAllBytes(file));
      storage.close();
      SourceFile object =
          SourceFile.resolve(
              "gs://sources/a/features.geojsonseq", io.tilebeam.io.storage.Stores.of(settings));
      assertEquals(Files.size(file), object.size());
      assertTrue(object.identity().startsWith("gcs:"), object.identity());
      GeoJsonSeqSource source = new GeoJsonSeqSource(object);
      for (long split : new long[] {1, 7, 64, object.size()}) {
        List<Feature> features = new ArrayList<>();
        List<BadFeature> bad = new ArrayList<>();
        for (GeoJsonSeqSource.Range r : GeoJsonSeqSource.split(object.size(), split)) {
          source.forEach(r, features::add, bad::add);
        }
        assertEquals(local.features(), features, "split " + split);
        assertEquals(local.bad().size(), bad.size(), "split " + split);
      }
      assertThrows(
          IllegalArgumentException.class,
          () ->
              SourceFile.resolve(
                  "gs://sources/missing.geojsonseq", io.tilebeam.io.storage.Stores.of(settings)));
    }
  }

  @Test
  void splitsCoverTheFileWithoutGaps() {
    assertEquals(
        List.of(
            new GeoJsonSeqSource.Range(0, 4),
            new GeoJsonSeqSource.Range(4, 8),
            new GeoJsonSeqSource.Range(8, 10)),
        GeoJsonSeqSource.split(10, 4));
    assertEquals(List.of(), GeoJsonSeqSource.split(0, 4));
  }

  @Test
  void aFileIsCutIntoManyRangesWithinTheBounds() {
    long mib = 1L << 20;
    // Small files: ranges of the least size, so fewer of them.
    assertEquals(mib, GeoJsonSeqSource.splitBytes(10));
    assertEquals(3, GeoJsonSeqSource.split(3 * mib, GeoJsonSeqSource.splitBytes(3 * mib)).size());
    // A 200 MB file: 64 ranges of about 3 MiB, so that random spreading loads workers evenly.
    long size = 209_536_020L;
    assertEquals(3_274_001L, GeoJsonSeqSource.splitBytes(size));
    assertEquals(64, GeoJsonSeqSource.split(size, GeoJsonSeqSource.splitBytes(size)).size());
    // Large files: ranges of the most size, so more of them.
    assertEquals(32 * mib, GeoJsonSeqSource.splitBytes(100L << 30));
    assertEquals(3200, GeoJsonSeqSource.split(100L << 30, 32 * mib).size());
  }
}
