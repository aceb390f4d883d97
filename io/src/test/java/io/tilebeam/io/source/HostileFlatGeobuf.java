package io.tilebeam.io.source;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import org.locationtech.jts.geom.Envelope;
import org.wololo.flatgeobuf.HeaderMeta;
import org.wololo.flatgeobuf.generated.Feature;
import org.wololo.flatgeobuf.generated.Geometry;
import org.wololo.flatgeobuf.generated.GeometryType;

/**
 * FlatGeobuf files whose structure lies, for the tests of what tilebeam does with hostile files:
 * built with the flatbuffers of the reference library ({@code org.wololo:flatgeobuf}) and then
 * patched, or patched from a file GDAL wrote.
 */
public final class HostileFlatGeobuf {

  private static final byte[] MAGIC = {'f', 'g', 'b', 3, 'f', 'g', 'b', 0};

  private HostileFlatGeobuf() {}

  /**
   * An unindexed file of two features in WGS 84: a point at 100°E 10°N, and a GeometryCollection
   * whose one part is the collection itself (a flatbuffer offset pointing back).
   */
  public static byte[] selfReferencingCollection() throws Exception {
    HeaderMeta header = new HeaderMeta();
    header.name = "hostile";
    header.geometryType = GeometryType.Unknown;
    header.srid = 4326;
    header.envelope = new Envelope(-10, 110, 0, 20);
    header.featuresCount = 2;
    header.indexNodeSize = 0;
    header.columns = new ArrayList<>();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(MAGIC);
    HeaderMeta.write(header, out, new FlatBufferBuilder(1024));
    out.writeBytes(point(100, 10));
    out.writeBytes(selfReference());
    return out.toByteArray();
  }

  /** A point geometry in {@code b}; its offset. */
  private static int pointGeometry(FlatBufferBuilder b, double x, double y) {
    int xy = Geometry.createXyVector(b, new double[] {x, y});
    Geometry.startGeometry(b);
    Geometry.addXy(b, xy);
    Geometry.addType(b, GeometryType.Point);
    return Geometry.endGeometry(b);
  }

  private static byte[] point(double x, double y) {
    FlatBufferBuilder b = new FlatBufferBuilder(256);
    int g = pointGeometry(b, x, y);
    Feature.startFeature(b);
    Feature.addGeometry(b, g);
    Feature.finishSizePrefixedFeatureBuffer(b, Feature.endFeature(b));
    return b.sizedByteArray();
  }

  /** A collection of one point, whose part offset is then made to point at the collection. */
  private static byte[] selfReference() throws Exception {
    FlatBufferBuilder b = new FlatBufferBuilder(256);
    int child = pointGeometry(b, 0, 10);
    int parts = Geometry.createPartsVector(b, new int[] {child});
    Geometry.startGeometry(b);
    Geometry.addParts(b, parts);
    Geometry.addType(b, GeometryType.GeometryCollection);
    int collection = Geometry.endGeometry(b);
    Feature.startFeature(b);
    Feature.addGeometry(b, collection);
    Feature.finishSizePrefixedFeatureBuffer(b, Feature.endFeature(b));
    byte[] bytes = b.sizedByteArray();
    // Positions in the feature's own buffer (after its 4-byte size): the collection's table, and
    // its parts vector's one element, found through the generated accessors.
    ByteBuffer body =
        ByteBuffer.wrap(bytes, 4, bytes.length - 4).slice().order(ByteOrder.LITTLE_ENDIAN);
    Geometry g = Feature.getRootAsFeature(body).geometry();
    int table = (int) field(g, "bb_pos");
    Method offset = com.google.flatbuffers.Table.class.getDeclaredMethod("__offset", int.class);
    Method vector = com.google.flatbuffers.Table.class.getDeclaredMethod("__vector", int.class);
    offset.setAccessible(true);
    vector.setAccessible(true);
    int element = (int) vector.invoke(g, (int) offset.invoke(g, 18));
    body.putInt(element, table - element);
    return bytes;
  }

  private static Object field(Object o, String name) throws Exception {
    java.lang.reflect.Field f = com.google.flatbuffers.Table.class.getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }

  /**
   * {@code indexed} (a file GDAL wrote with its spatial index) with its header saying "no index".
   */
  public static byte[] indexNodeSizeZero(Path indexed) throws IOException {
    byte[] bytes = Files.readAllBytes(indexed);
    HeaderMeta header = HeaderMeta.read(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
    int end = header.offset;
    header.indexNodeSize = 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(MAGIC);
    HeaderMeta.write(header, out, new FlatBufferBuilder(1024));
    out.writeBytes(Arrays.copyOfRange(bytes, end, bytes.length));
    return out.toByteArray();
  }

  /** {@code indexed} with its index's root pointing at itself instead of its first child. */
  public static byte[] rootPointingAtItself(Path indexed) throws IOException {
    byte[] bytes = Files.readAllBytes(indexed);
    HeaderMeta header = HeaderMeta.read(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(header.offset + 32, 0);
    return bytes;
  }
}
