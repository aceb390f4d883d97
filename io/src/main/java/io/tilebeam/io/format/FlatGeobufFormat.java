package io.tilebeam.io.format;

import com.google.flatbuffers.ByteBufferUtil;
import com.google.flatbuffers.FlatBufferBuilder;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.wololo.flatgeobuf.Constants;
import org.wololo.flatgeobuf.GeometryConversions;
import org.wololo.flatgeobuf.NodeItem;
import org.wololo.flatgeobuf.PackedRTree;
import org.wololo.flatgeobuf.generated.Column;
import org.wololo.flatgeobuf.generated.Crs;
import org.wololo.flatgeobuf.generated.Feature;
import org.wololo.flatgeobuf.generated.GeometryType;
import org.wololo.flatgeobuf.generated.Header;

/**
 * FlatGeobuf with a packed Hilbert R-tree index (node size 16) and the CRS in the header. Features
 * are Hilbert-sorted for the index with a stable sort, so ties keep the tile's id order and the
 * bytes are fixed. Columns are the sorted union of the tile's property names ({@link
 * PropertyColumns}).
 */
public final class FlatGeobufFormat implements VectorFormat {

  private static final short NODE_SIZE = 16;

  @Override
  public String name() {
    return "flatgeobuf";
  }

  @Override
  public String mediaType() {
    return "application/octet-stream";
  }

  @Override
  public String extension() {
    return "fgb";
  }

  @Override
  public Encoded encode(RenderedTile tile, CrsRef crs) throws IOException {
    // A tile may hold millions of vertices (a zoom-0 tile of every country): each geometry is
    // parsed only while it is encoded, and the file is written into a buffer of its exact size.
    PropertyColumns columns = PropertyColumns.of(tile.features());
    byte geometryType = commonType(tile.features());

    List<PackedRTree.FeatureItem> items = new ArrayList<>();
    Envelope extent = new Envelope();
    WKBReader reader = new WKBReader();
    long featureBytes = 0;
    // One builder for the tile, cleared for each feature: a flatbuffer's bytes do not depend on
    // the capacity it was built in, and a new builder per feature was the encoder's largest
    // allocation.
    FlatBufferBuilder builder = new FlatBufferBuilder(1024);
    // Plain 2D WKB is written into the table directly; anything else through JTS and the library.
    FlatGeobufGeometry direct = new FlatGeobufGeometry();
    for (RenderedFeature f : tile.features()) {
      builder.clear();
      Envelope e;
      int geometry = direct.write(builder, f.wkb(), geometryType);
      if (geometry >= 0) {
        e = direct.envelope();
      } else {
        Geometry g = read(reader, f);
        geometry = GeometryConversions.serialize(builder, g, geometryType);
        e = g.getEnvelopeInternal();
      }
      int properties = columns.encode(f, builder);
      builder.finishSizePrefixed(Feature.createFeature(builder, geometry, properties, 0));
      extent.expandToInclude(e);
      EncodedItem item = new EncodedItem(builder.sizedByteArray());
      item.nodeItem = new NodeItem(e.getMinX(), e.getMinY(), e.getMaxX(), e.getMaxY());
      items.add(item);
      featureBytes += item.bytes.length;
    }

    byte[] header = header(tile, crs, columns, geometryType, extent, items.size());
    long size =
        Constants.MAGIC_BYTES.length
            + header.length
            + (items.isEmpty() ? 0 : PackedRTree.calcSize(items.size(), NODE_SIZE))
            + featureBytes;
    if (size > Integer.MAX_VALUE - 16) {
      throw new IOException("a FlatGeobuf tile of " + size + " bytes is beyond 2 GB");
    }
    ExactBuffer out = new ExactBuffer((int) size);
    out.write(Constants.MAGIC_BYTES);
    out.write(header);
    if (!items.isEmpty()) {
      NodeItem bounds =
          new NodeItem(extent.getMinX(), extent.getMinY(), extent.getMaxX(), extent.getMaxY());
      items = hilbertSorted(items, bounds);
      long offset = 0;
      for (PackedRTree.FeatureItem item : items) {
        item.nodeItem.offset = offset;
        offset += ((EncodedItem) item).bytes.length;
      }
      new PackedRTree(items, NODE_SIZE).write(out);
      for (PackedRTree.FeatureItem item : items) {
        out.write(((EncodedItem) item).bytes);
      }
    }
    return new Encoded(out.bytes(), items.size());
  }

  /** A byte buffer sized up front, whose array is handed over without a copy when full. */
  private static final class ExactBuffer extends ByteArrayOutputStream {
    ExactBuffer(int size) {
      super(size);
    }

    byte[] bytes() {
      return count == buf.length ? buf : toByteArray();
    }
  }

  @Override
  public long countFeatures(byte[] bytes) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (bytes.length < 12
        || !Arrays.equals(Arrays.copyOf(bytes, 3), Arrays.copyOf(Constants.MAGIC_BYTES, 3))) {
      throw new IOException("not a FlatGeobuf file");
    }
    int offset = Constants.MAGIC_BYTES.length;
    bb.position(offset);
    int headerSize = ByteBufferUtil.getSizePrefix(bb);
    bb.position(offset + 4);
    Header header = Header.getRootAsHeader(bb);
    long declared = header.featuresCount();
    int position = offset + 4 + headerSize;
    if (declared > 0 && header.indexNodeSize() > 0) {
      position += (int) PackedRTree.calcSize((int) declared, header.indexNodeSize());
    }
    long counted = 0;
    while (position < bytes.length) {
      bb.position(position);
      int size = ByteBufferUtil.getSizePrefix(bb);
      if (size <= 0 || position + 4L + size > bytes.length) {
        throw new IOException("truncated FlatGeobuf feature at byte " + position);
      }
      bb.position(position + 4);
      if (Feature.getRootAsFeature(bb).geometry() == null) {
        throw new IOException("FlatGeobuf feature without geometry at byte " + position);
      }
      position += 4 + size;
      counted++;
    }
    if (counted != declared) {
      throw new IOException(
          "FlatGeobuf header says " + declared + " features, file has " + counted);
    }
    return counted;
  }

  private static Geometry read(WKBReader reader, RenderedFeature f) throws IOException {
    try {
      return reader.read(f.wkb());
    } catch (ParseException e) {
      throw new IOException("feature " + f.id() + " has unreadable WKB", e);
    }
  }

  /**
   * The one geometry type of every feature, else {@code Unknown}; read from each WKB's type field
   * (WKB and FlatGeobuf number the seven simple types alike), without parsing the geometry.
   */
  private static byte commonType(List<RenderedFeature> features) throws IOException {
    byte type = GeometryType.Unknown;
    for (int i = 0; i < features.size(); i++) {
      byte t = wkbType(features.get(i));
      if (i == 0) {
        type = t;
      } else if (t != type) {
        return GeometryType.Unknown;
      }
    }
    return type;
  }

  private static byte wkbType(RenderedFeature f) throws IOException {
    byte[] wkb = f.wkb();
    if (wkb.length < 5) {
      throw new IOException("feature " + f.id() + " has unreadable WKB");
    }
    ByteBuffer bb = ByteBuffer.wrap(wkb, 1, 4);
    bb.order(wkb[0] == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    // ISO codes add thousands for Z and M, EWKB sets high flag bits: the simple type is the rest.
    int code = (bb.getInt() & 0xffff) % 1000;
    if (code < 1 || code > 7) {
      throw new IOException("feature " + f.id() + " has WKB geometry type " + code);
    }
    return (byte) code;
  }

  private static byte[] header(
      RenderedTile tile,
      CrsRef crs,
      PropertyColumns columns,
      byte geometryType,
      Envelope extent,
      int count) {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int name = b.createString(tile.work().layer());
    int[] cols = new int[columns.names().size()];
    for (int i = 0; i < cols.length; i++) {
      int colName = b.createString(columns.names().get(i));
      Column.startColumn(b);
      Column.addName(b, colName);
      Column.addType(b, columns.types().get(i));
      Column.addNullable(b, true);
      cols[i] = Column.endColumn(b);
    }
    int columnsVector = Header.createColumnsVector(b, cols);
    int crsTable = crs(b, crs);
    int envelope =
        count == 0
            ? 0
            : Header.createEnvelopeVector(
                b,
                new double[] {
                  extent.getMinX(), extent.getMinY(), extent.getMaxX(), extent.getMaxY()
                });
    Header.startHeader(b);
    Header.addName(b, name);
    if (envelope != 0) {
      Header.addEnvelope(b, envelope);
    }
    Header.addGeometryType(b, geometryType);
    Header.addColumns(b, columnsVector);
    Header.addFeaturesCount(b, count);
    Header.addIndexNodeSize(b, count == 0 ? 0 : NODE_SIZE);
    Header.addCrs(b, crsTable);
    b.finishSizePrefixed(Header.endHeader(b));
    return b.sizedByteArray();
  }

  private static int crs(FlatBufferBuilder b, CrsRef crs) {
    String identity = crs.identity();
    int colon = identity.indexOf(':');
    String org = identity.substring(0, colon);
    String code = identity.substring(colon + 1);
    int orgOffset = b.createString(org);
    boolean numeric = code.chars().allMatch(Character::isDigit) && !code.isEmpty();
    int codeString = numeric ? 0 : b.createString(code);
    Crs.startCrs(b);
    Crs.addOrg(b, orgOffset);
    if (numeric) {
      Crs.addCode(b, Integer.parseInt(code));
    } else {
      Crs.addCodeString(b, codeString);
    }
    return Crs.endCrs(b);
  }

  /** A feature already encoded, with the node the index sorts it by. */
  private static final class EncodedItem extends PackedRTree.FeatureItem {
    final byte[] bytes;

    EncodedItem(byte[] bytes) {
      this.bytes = bytes;
      this.size = bytes.length;
    }
  }

  /** The Hilbert curve's side in FlatGeobuf's index: 2^16 - 1 cells per axis. */
  private static final int HILBERT_MAX = 65535;

  /**
   * The items in the order of FlatGeobuf's {@code PackedRTree.hilbertSort}: by the Hilbert value of
   * each box's centre, ties in their present order. That method computes both values again in every
   * comparison, quadratic work in a tile of many features; here each value is computed once, and a
   * stable sort by the same key gives the same order, so the same bytes.
   */
  static List<PackedRTree.FeatureItem> hilbertSorted(
      List<PackedRTree.FeatureItem> items, NodeItem bounds) {
    int n = items.size();
    long[] keyed = new long[n];
    for (int i = 0; i < n; i++) {
      long h =
          PackedRTree.hibert(
              items.get(i).nodeItem,
              HILBERT_MAX,
              bounds.minX,
              bounds.minY,
              bounds.width(),
              bounds.height());
      // Hilbert values of 16-bit cells fit in 32 bits: value, then position, in one long.
      keyed[i] = (h << 31) | i;
    }
    java.util.Arrays.sort(keyed);
    List<PackedRTree.FeatureItem> sorted = new ArrayList<>(n);
    for (long k : keyed) {
      sorted.add(items.get((int) (k & 0x7FFF_FFFFL)));
    }
    return sorted;
  }
}
