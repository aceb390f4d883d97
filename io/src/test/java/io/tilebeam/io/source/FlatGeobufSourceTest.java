package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.flatbuffers.FlatBufferBuilder;
import io.tilebeam.io.storage.Stores;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.io.WKBReader;
import org.wololo.flatgeobuf.ColumnMeta;
import org.wololo.flatgeobuf.Constants;
import org.wololo.flatgeobuf.HeaderMeta;
import org.wololo.flatgeobuf.generated.ColumnType;
import org.wololo.flatgeobuf.generated.GeometryType;

/**
 * FlatGeobuf files as GDAL writes them, read whole and through the index: the same features (ids,
 * geometries, properties) as the GeoJSON they were converted from, only the ones in a box, and
 * clear errors for files cut short or holding columns that cannot be properties.
 */
class FlatGeobufSourceTest {

  private static final Path SAMPLE = Path.of("../src/samples/islands.geojson").toAbsolutePath();

  @TempDir Path dir;

  private Path convert(String name, String... options) throws IOException {
    Path out = dir.resolve(name);
    List<String> args = new ArrayList<>(List.of("-f", "FlatGeobuf"));
    args.addAll(List.of(options));
    args.addAll(List.of(out.toString(), SAMPLE.toString()));
    Gdal.ogr2ogr(args.toArray(String[]::new));
    return out;
  }

  /** Features by id, each as hex WKB and properties. */
  private static Map<String, String> byId(List<Feature> features) {
    Map<String, String> out = new TreeMap<>();
    for (Feature f : features) {
      out.put(f.id(), HexFormat.of().formatHex(f.wkb()) + " " + f.properties());
    }
    return out;
  }

  private static List<Feature> geoJson() throws IOException {
    List<Feature> out = new ArrayList<>();
    new GeoJsonSource(new SourceFile.Local(SAMPLE.toString()))
        .forEach(out::add, bad -> assertFalse(true, bad.toString()));
    return out;
  }

  @Test
  void aGdalFileHoldsTheSameFeaturesAsItsGeoJson() throws Exception {
    FlatGeobufSource fgb =
        FlatGeobufSource.open(new SourceFile.Local(convert("a.fgb").toString()), null);
    assertTrue(fgb.indexed());
    assertEquals("EPSG:4326", fgb.declaredCrs());
    List<Feature> whole = new ArrayList<>();
    fgb.forEach(whole::add, bad -> assertFalse(true, bad.toString()));
    List<Feature> world = new ArrayList<>();
    fgb.forEachIn(
        List.of(new Bounds(-180, -90, 180, 90)),
        world::add,
        bad -> assertFalse(true, bad.toString()));

    Map<String, String> expected = byId(geoJson());
    assertEquals(12, expected.size());
    assertEquals(expected, byId(whole));
    assertEquals(expected, byId(world));
    // Sri Lanka has no id: its digest id is the same from either format.
    assertTrue(expected.keySet().stream().anyMatch(id -> id.startsWith("sha256:")));
  }

  @Test
  void aBoxSearchFindsExactlyTheFeaturesWhoseEnvelopesMeetIt() throws Exception {
    FlatGeobufSource fgb =
        FlatGeobufSource.open(new SourceFile.Local(convert("b.fgb").toString()), null);
    List<Feature> all = geoJson();
    WKBReader wkb = new WKBReader();
    Random random = new Random(7);
    for (int i = 0; i < 200; i++) {
      double x = random.nextDouble() * 360 - 180;
      double y = random.nextDouble() * 180 - 90;
      Bounds box = new Bounds(x, y, x + random.nextDouble() * 40, y + random.nextDouble() * 20);
      Envelope e = new Envelope(box.minX(), box.maxX(), box.minY(), box.maxY());
      List<Feature> expected = new ArrayList<>();
      for (Feature f : all) {
        if (wkb.read(f.wkb()).getEnvelopeInternal().intersects(e)) {
          expected.add(f);
        }
      }
      List<Feature> found = new ArrayList<>();
      fgb.forEachIn(List.of(box), found::add, bad -> {});
      assertEquals(byId(expected), byId(found), box.toString());
    }
  }

  /** The kind of source the format resolves decides how the reading stage reads it. */
  @Test
  void anIndexedFileIsReadByIndexAndAnUnindexedOneInSplits() throws Exception {
    SourceFormat format = SourceFormats.named("flatgeobuf").orElseThrow();
    assertInstanceOf(
        IndexedSource.class,
        format.resolve(
            convert("d.fgb").toString(),
            SourceOptions.NONE,
            Stores.fromEnvironment(io.tilebeam.io.retry.RetryPolicy.DEFAULT)));
    assertInstanceOf(
        SplitSource.class,
        format.resolve(
            convert("e.fgb", "-lco", "SPATIAL_INDEX=NO").toString(),
            SourceOptions.NONE,
            Stores.fromEnvironment(io.tilebeam.io.retry.RetryPolicy.DEFAULT)));
  }

  @Test
  void aFileWithoutAnIndexIsReadWhole() throws Exception {
    FlatGeobufSource fgb =
        FlatGeobufSource.open(
            new SourceFile.Local(convert("c.fgb", "-lco", "SPATIAL_INDEX=NO").toString()), null);
    assertFalse(fgb.indexed());
    List<Feature> whole = new ArrayList<>();
    fgb.forEach(whole::add, bad -> assertFalse(true, bad.toString()));
    assertEquals(byId(geoJson()), byId(whole));
  }

  /**
   * A file without an index read in parts (each by a source of its own, as on another worker) gives
   * the same features in the same order as read whole, for parts of every size; the parts follow
   * each other without gap.
   */
  @Test
  void aFileWithoutAnIndexReadInPartsGivesTheSameFeatures() throws Exception {
    SourceFile file = new SourceFile.Local(convert("p.fgb", "-lco", "SPATIAL_INDEX=NO").toString());
    List<Feature> whole = new ArrayList<>();
    FlatGeobufSource.open(file, null).forEach(whole::add, bad -> assertFalse(true, bad.toString()));
    for (long partBytes : new long[] {1, 300, 2_000, Long.MAX_VALUE}) {
      List<GeoJsonSeqSource.Range> parts = new ArrayList<>();
      FlatGeobufSource.open(file, null).parts(partBytes, parts::add);
      assertEquals(0, parts.get(0).start());
      for (int i = 1; i < parts.size(); i++) {
        assertEquals(parts.get(i - 1).end(), parts.get(i).start(), "parts " + parts);
      }
      assertEquals(
          partBytes == 1 ? whole.size() : partBytes == Long.MAX_VALUE ? 1 : parts.size(),
          parts.size());
      List<Feature> read = new ArrayList<>();
      for (GeoJsonSeqSource.Range part : parts) {
        FlatGeobufSource.open(file, null)
            .forEach(part, read::add, bad -> assertFalse(true, bad.toString()));
      }
      assertEquals(
          whole.stream()
              .map(f -> f.id() + HexFormat.of().formatHex(f.wkb()) + f.properties())
              .toList(),
          read.stream()
              .map(f -> f.id() + HexFormat.of().formatHex(f.wkb()) + f.properties())
              .toList(),
          "parts of " + partBytes + " bytes");
    }
  }

  /** A file cut short fails the walk that cuts it into parts, as it fails a read. */
  @Test
  void aTruncatedFileWithoutAnIndexFailsItsParts() throws Exception {
    byte[] bytes = Files.readAllBytes(convert("t.fgb", "-lco", "SPATIAL_INDEX=NO"));
    Path cut = dir.resolve("t-cut.fgb");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 10));
    FlatGeobufSource fgb = FlatGeobufSource.open(new SourceFile.Local(cut.toString()), null);
    SourceFormatException e =
        assertThrows(SourceFormatException.class, () -> fgb.parts(1, part -> {}));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void aTruncatedFileIsRefusedWhenOpened() throws Exception {
    byte[] bytes = Files.readAllBytes(convert("d.fgb"));
    for (int keep : new int[] {bytes.length - 1, bytes.length - 200, 2000, 100, 20, 5}) {
      Path cut = dir.resolve("cut-" + keep + ".fgb");
      Files.write(cut, java.util.Arrays.copyOf(bytes, keep));
      SourceFormatException e =
          assertThrows(
              SourceFormatException.class,
              () -> FlatGeobufSource.open(new SourceFile.Local(cut.toString()), null),
              "cut at " + keep);
      assertTrue(
          e.getMessage().contains("truncated") || e.getMessage().contains("not a FlatGeobuf"),
          e.getMessage());
      assertTrue(e.getMessage().contains(cut.toString()), e.getMessage());
    }
  }

  @Test
  void aTruncatedFileWithoutAnIndexFailsItsRead() throws Exception {
    byte[] bytes = Files.readAllBytes(convert("e.fgb", "-lco", "SPATIAL_INDEX=NO"));
    Path cut = dir.resolve("e-cut.fgb");
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 10));
    FlatGeobufSource fgb = FlatGeobufSource.open(new SourceFile.Local(cut.toString()), null);
    SourceFormatException e =
        assertThrows(SourceFormatException.class, () -> fgb.forEach(f -> {}, bad -> {}));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void aColumnThatCannotBeAPropertyIsNamed() throws Exception {
    HeaderMeta header = new HeaderMeta();
    header.geometryType = GeometryType.Point;
    header.columns = new ArrayList<>();
    ColumnMeta blob = new ColumnMeta();
    blob.name = "thumbnail";
    blob.type = ColumnType.Binary;
    ColumnMeta odd = new ColumnMeta();
    odd.name = "future";
    odd.type = 42;
    header.columns.add(blob);
    header.columns.add(odd);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(Constants.MAGIC_BYTES);
    HeaderMeta.write(header, out, new FlatBufferBuilder());
    Path file = dir.resolve("binary.fgb");
    Files.write(file, out.toByteArray());

    FlatGeobufSource fgb = FlatGeobufSource.open(new SourceFile.Local(file.toString()), null);
    List<String> problems = fgb.unreadableColumns();
    assertEquals(2, problems.size(), problems.toString());
    assertTrue(problems.get(0).contains("'thumbnail' has type Binary"), problems.get(0));
    assertTrue(problems.get(1).contains("'future' has type code 42"), problems.get(1));
  }

  @Test
  void notAFlatGeobufFileIsSaidSo() throws Exception {
    Path file = dir.resolve("x.fgb");
    Files.writeString(file, "{\"type\":\"FeatureCollection\",\"features\":[]}");
    SourceFormatException e =
        assertThrows(
            SourceFormatException.class,
            () -> FlatGeobufSource.open(new SourceFile.Local(file.toString()), null));
    assertTrue(e.getMessage().contains("not a FlatGeobuf file"), e.getMessage());
  }
}
