package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.codec.parquet.HostileParquet;
import io.tilebeam.codec.tiff.HostileTiff;
import io.tilebeam.io.ledger.EmbeddedLedger;
import io.tilebeam.io.source.Gdal;
import io.tilebeam.io.source.HostileFlatGeobuf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile source files, each made to lie about one size, count or offset in its header, run through
 * the command line in a JVM of 256 MB of heap (this class runs in surefire's {@code hostile-inputs}
 * execution, {@code -Xmx256m}): none may take the run's memory or stack or end it with a bare
 * runtime exception. A lie in what is read at planning (a footer, a TIFF directory, a FlatGeobuf
 * header or index root) is exit 2 naming {@code source.uri} and what is wrong, before anything is
 * claimed; a lie in one part read later (a Parquet page, a TIFF block) fails the tiles that part
 * could reach (exit 3) while the others publish; a lie in one feature (its WKB or FlatGeobuf
 * geometry) dead-letters that feature alone.
 *
 * <p>The GeoParquet files hold two row groups: one around 60°W 10°N (good, tile 2/1/1) and one
 * around 100°E 10°N that the case damages (tile 2/3/1).
 */
class HostileSourcesIT {

  @TempDir static Path serverHome;
  @TempDir Path dir;

  private static EmbeddedLedger server;
  private static final AtomicInteger RUNS = new AtomicInteger();

  @BeforeAll
  static void startServer() {
    server = EmbeddedLedger.start(serverHome);
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  /** A run's exit status, what it said and its report (when it wrote one). */
  private record Outcome(int code, String err, JsonNode report, Path out) {}

  private Outcome run(Path source, String format, String bbox, int zoom, String outputFormat)
      throws Exception {
    int n = RUNS.incrementAndGet();
    Path out = dir.resolve("out-" + n);
    Path job = dir.resolve("job.yaml");
    Files.writeString(
        job,
        "namespace: hostile-"
            + n
            + "\nlayers:\n  - name: l\n"
            + "    source: {uri: "
            + source
            + ", format: "
            + format
            + "}\n"
            + "    extents: [{bbox: "
            + bbox
            + "}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n    zooms: ["
            + zoom
            + ", "
            + zoom
            + "]\n    targetCrs: EPSG:3857\n"
            + "    output: {uri: "
            + out
            + ", format: "
            + outputFormat
            + "}\n");
    Path report = dir.resolve("report.json");
    TestJobs.Result r =
        TestJobs.execute(
            "run",
            "--job",
            job.toString(),
            "--ledger",
            server.config().jdbcUrl(),
            "--report",
            report.toString(),
            "--runner=DirectRunner");
    JsonNode json = Files.exists(report) ? new ObjectMapper().readTree(report.toFile()) : null;
    return new Outcome(r.code(), r.err(), json, out);
  }

  /**
   * A GeoJSON FeatureCollection with corrupt JSON inside one feature (a trailing comma among its
   * properties): the file is cut into parts by a scan that parses no feature, and the part that
   * holds it fails every claimed tile of the layer with the byte (exit 3); nothing of the layer is
   * published, the good feature's tile neither.
   */
  @Test
  void corruptJsonInsideAGeoJsonFeatureFailsTheLayersTiles() throws Exception {
    String good =
        "{\"type\":\"Feature\",\"properties\":{},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[-60,10]}}";
    String bad =
        "{\"type\":\"Feature\",\"properties\":{\"a\":1,},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[100,10]}}";
    Path file =
        Files.writeString(
            dir.resolve("corrupt.geojson"),
            "{\"type\":\"FeatureCollection\",\"features\":[" + good + ",\n" + bad + "]}");
    Outcome o = run(file, "geojson", "[-180, -85, 180, 85]", 2, "geojson");
    assertEquals(ExitCode.TILES_FAILED, o.code(), o.err());
    assertEquals(0, o.report().get("written").asLong(), o.report().toString());
    assertEquals(16, o.report().get("failed").asLong(), o.report().toString());
    String failures = Files.readString(o.out().resolve("_failed/l/tiles.jsonl"));
    assertTrue(failures.contains("corrupt JSON at byte"), failures);
    assertTrue(!Files.exists(o.out().resolve("l/2/1/1.geojson")), "nothing published");
  }

  private Outcome parquet(String name, byte[] bytes) throws Exception {
    Path file = Files.write(dir.resolve(name + ".parquet"), bytes);
    return run(file, "geoparquet", "[-180, -85, 180, 85]", 2, "geojson");
  }

  private Outcome tiff(String name, byte[] bytes) throws Exception {
    Path file = Files.write(dir.resolve(name + ".tif"), bytes);
    return run(file, "geotiff", "[10, 40, 20, 50]", 7, "geotiff");
  }

  /** Exit 2 before any claim, naming the source's uri and {@code what}; nothing written. */
  private static void refused(Outcome o, String... what) {
    assertEquals(ExitCode.BAD_INPUT, o.code(), o.err());
    assertTrue(o.err().contains("layers[0].source.uri"), o.err());
    for (String w : what) {
      assertTrue(o.err().contains(w), "'" + w + "' in: " + o.err());
    }
    assertTrue(!Files.exists(o.out()), "nothing written");
  }

  /**
   * Exit 3: the good row group's tile published with its 20 points, the damaged one's failed with
   * {@code reason}.
   */
  private static void damagedRowGroupFails(Outcome o, String reason) throws Exception {
    assertEquals(ExitCode.TILES_FAILED, o.code(), o.err());
    assertTrue(o.report().get("failed").asLong() >= 1, o.report().toString());
    assertTrue(o.report().get("written").asLong() >= 1, o.report().toString());
    Path good = o.out().resolve("l/2/1/1.geojson");
    JsonNode tile = new ObjectMapper().readTree(good.toFile());
    assertEquals(20, tile.get("features").size(), tile.toString());
    assertTrue(
        !Files.exists(o.out().resolve("l/2/3/1.geojson")), "the damaged tile is not published");
    String failures = Files.readString(o.out().resolve("_failed/l/tiles.jsonl"));
    assertTrue(failures.contains("2/3/1") || failures.contains("\"x\":3"), failures);
    assertTrue(failures.contains(reason), failures);
  }

  /** The cases mean something only in a small heap: surefire's hostile-inputs execution. */
  @Test
  void runsInAHeapOf256Megabytes() {
    long max = Runtime.getRuntime().maxMemory();
    assertTrue(
        max <= 300L << 20,
        "a heap of " + (max >> 20) + " MB: run by surefire's hostile-inputs execution (-Xmx256m)");
  }

  @Test
  void aSnappyPageClaimingTwoGigabytesFailsItsRowGroupsTiles() throws Exception {
    damagedRowGroupFails(
        parquet("snappy-2g", HostileParquet.snappyPageClaiming(2L << 30)), "claims to hold");
  }

  @Test
  void aGzipPageInflatingToOneAndAHalfGigabytesFailsItsRowGroupsTiles() throws Exception {
    damagedRowGroupFails(
        parquet("gzip-bomb", HostileParquet.gzipBomb(1_500_000_000L)), "decompresses to more than");
  }

  @Test
  void aPageClaimingABillionValuesFailsItsRowGroupsTiles() throws Exception {
    damagedRowGroupFails(
        parquet("page-1e9", HostileParquet.pageClaimingValues(1_000_000_000)),
        "values where the chunk has");
  }

  @Test
  void aDictionaryIndexPastTheDictionaryFailsItsRowGroupsTiles() throws Exception {
    damagedRowGroupFails(
        parquet("dictionary", HostileParquet.dictionaryIndexPast()), "dictionary index");
  }

  @Test
  void aColumnChunkClaimingABillionValuesIsRefused() throws Exception {
    refused(
        parquet("chunk-1e9", HostileParquet.chunkClaimingValues(1_000_000_000L)),
        "row group 1",
        "1000000000");
  }

  @Test
  void aRowCountThatDisagreesWithItsColumnsIsRefusedNotASubset() throws Exception {
    refused(
        parquet("rows-5", HostileParquet.rowCountDisagreeing(5)),
        "row group 1 says it holds 5 rows",
        "holds 20 values");
  }

  @Test
  void aSchemaNestedTwoHundredThousandDeepIsRefused() throws Exception {
    refused(parquet("deep-schema", HostileParquet.nestedSchema(200_000)), "nests deeper than");
  }

  @Test
  void nanStatisticsAreRefused() throws Exception {
    refused(parquet("nan-stats", HostileParquet.nanStatistics()), "NaN", "bbox.xmin");
  }

  @Test
  void aThriftFieldOfTheWrongTypeIsRefused() throws Exception {
    refused(parquet("thrift-type", HostileParquet.wrongThriftType()), "thrift field 3");
  }

  @Test
  void aWkbNestedAHundredThousandDeepIsOneDeadLetter() throws Exception {
    Outcome o = parquet("deep-wkb", HostileParquet.deepWkb(100_000));
    assertEquals(ExitCode.OK, o.code(), o.err());
    assertEquals(1, o.report().get("featuresDeadLettered").asLong(), o.report().toString());
    assertEquals(39, o.report().get("featuresWritten").asLong(), o.report().toString());
    String dead = Files.readString(o.out().resolve("_failed/l/features.jsonl"));
    assertTrue(dead.contains("nest deeper than"), dead);
  }

  @Test
  void aTiffBlockOf16384SquaredWithNoBytesIsRefused() throws Exception {
    refused(tiff("huge-empty", HostileTiff.hugeBlockOfNoBytes()), "16384 x 16384");
  }

  @Test
  void aTiffBlockOf16384SquaredOfDeflateIsRefused() throws Exception {
    refused(tiff("huge-deflate", HostileTiff.hugeBlockDeflated()), "16384 x 16384");
  }

  @Test
  void aBigTiffOffsetThatWrapsPastTwoToTheSixtyThirdIsRefused() throws Exception {
    refused(tiff("wrap", HostileTiff.bigTiffOffsetWrapping()), "9223372036854775707");
  }

  @Test
  void zeroSamplesPerPixelIsRefused() throws Exception {
    refused(tiff("spp0", HostileTiff.noSamplesPerPixel()), "SamplesPerPixel");
  }

  @Test
  void sixtyFiveThousandBandsAreRefused() throws Exception {
    refused(tiff("spp65535", HostileTiff.bands65535()), "65535 samples a pixel");
  }

  @Test
  void aGeoKeyDirectoryClaiming65535KeysIsRefused() throws Exception {
    refused(tiff("geokeys", HostileTiff.geoKeysClaiming65535()), "claims 65535 keys");
  }

  @Test
  void aNanOrZeroPixelScaleIsRefusedNotAllNoData() throws Exception {
    refused(tiff("nan-scale", HostileTiff.nanScale()), "ModelPixelScale", "NaN");
    refused(tiff("zero-scale", HostileTiff.zeroScale()), "ModelPixelScale", "0.0");
  }

  @Test
  void aDamagedTiffBlockFailsTheTilesThatNeedItAlone() throws Exception {
    Outcome o = tiff("damaged-block", HostileTiff.oneDamagedBlock());
    assertEquals(ExitCode.TILES_FAILED, o.code(), o.err());
    assertTrue(o.report().get("failed").asLong() >= 1, o.report().toString());
    assertTrue(o.report().get("written").asLong() >= 1, o.report().toString());
    // The good tiff, every tile written: the damage is the block's.
    Outcome good = tiff("good", HostileTiff.good());
    assertEquals(ExitCode.OK, good.code(), good.err());
    assertEquals(
        good.report().get("planned").asLong(),
        good.report().get("written").asLong(),
        good.report().toString());
    assertEquals(
        good.report().get("written").asLong(),
        o.report().get("written").asLong() + o.report().get("failed").asLong(),
        o.report().toString());
  }

  @Test
  void aFlatGeobufCollectionThatContainsItselfIsOneDeadLetter() throws Exception {
    Path file = Files.write(dir.resolve("self.fgb"), HostileFlatGeobuf.selfReferencingCollection());
    Outcome o = run(file, "flatgeobuf", "[-180, -85, 180, 85]", 2, "geojson");
    assertEquals(ExitCode.OK, o.code(), o.err());
    assertEquals(1, o.report().get("featuresDeadLettered").asLong(), o.report().toString());
    String dead = Files.readString(o.out().resolve("_failed/l/features.jsonl"));
    assertTrue(dead.contains("nest deeper than"), dead);
  }

  /** A FlatGeobuf file with its index, written by GDAL. */
  private Path indexedFlatGeobuf() throws Exception {
    Path fgb = dir.resolve("islands.fgb");
    Gdal.ogr2ogr("-f", "FlatGeobuf", fgb.toString(), TestJobs.SAMPLE_SOURCE);
    return fgb;
  }

  /**
   * A header that says "no index" before an index: its features are read from where the index is,
   * which is no feature; the file cannot be read, so every claimed tile of the layer fails (any may
   * have lost features), naming why, and nothing half read is published.
   */
  @Test
  void aFlatGeobufIndexOfNodeSizeZeroFailsTheLayersTiles() throws Exception {
    Path file =
        Files.write(
            dir.resolve("node0.fgb"), HostileFlatGeobuf.indexNodeSizeZero(indexedFlatGeobuf()));
    Outcome o = run(file, "flatgeobuf", "[-180, -85, 180, 85]", 2, "geojson");
    assertEquals(ExitCode.TILES_FAILED, o.code(), o.err());
    assertEquals(0, o.report().get("written").asLong(), o.report().toString());
    assertEquals(16, o.report().get("failed").asLong(), o.report().toString());
    String failures = Files.readString(o.out().resolve("_failed/l/tiles.jsonl"));
    assertTrue(failures.contains("node0.fgb"), failures);
  }

  @Test
  void aFlatGeobufIndexWhoseRootPointsAtItselfIsRefused() throws Exception {
    Path file =
        Files.write(
            dir.resolve("root.fgb"), HostileFlatGeobuf.rootPointingAtItself(indexedFlatGeobuf()));
    refused(run(file, "flatgeobuf", "[-180, -85, 180, 85]", 2, "geojson"), "corrupt spatial index");
  }
}
