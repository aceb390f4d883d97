package io.tilebeam.transforms.raster;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.codec.tiff.GeoTiffEncoder;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKeyCoder;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.apache.beam.sdk.coders.AtomicCoder;

/**
 * A deterministic coder for {@link RasterContent}: the key and work, the tile's shape, type and
 * no-data, its georeferencing, then its samples at their own width (a byte, two or four a sample),
 * not as Java-serialized doubles (a 256 × 256 Int16 tile is 128 KiB, not half a megabyte), then its
 * coverage as a bit a pixel.
 */
public final class RasterContentCoder extends AtomicCoder<RasterContent> {

  private static final RasterContentCoder INSTANCE = new RasterContentCoder();
  private static final SampleType[] TYPES = SampleType.values();

  private RasterContentCoder() {}

  /** The coder. */
  public static RasterContentCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(RasterContent value, OutputStream out) throws IOException {
    WorkKeyCoder.of().encode(value.key(), out);
    TileWorkCoder.of().encode(value.work(), out);
    RasterTile t = value.pixels();
    GeoTiffEncoder.Georeference g = value.where();
    DataOutputStream data = new DataOutputStream(out);
    data.writeInt(t.width());
    data.writeInt(t.height());
    data.writeInt(t.bands());
    data.writeByte(t.type().ordinal());
    data.writeBoolean(t.nodata() != null);
    data.writeDouble(t.nodata() != null ? t.nodata() : 0);
    data.writeInt(g.epsg());
    data.writeBoolean(g.geographic());
    data.writeDouble(g.minX());
    data.writeDouble(g.maxY());
    data.writeDouble(g.pixelWidth());
    data.writeDouble(g.pixelHeight());
    int width = t.type().bits() / 8;
    ByteBuffer samples = ByteBuffer.allocate(t.samples().length * width);
    for (double v : t.samples()) {
      switch (t.type()) {
        case UINT8 -> samples.put((byte) (int) v);
        case INT16, UINT16 -> samples.putShort((short) (int) v);
        case FLOAT32 -> samples.putFloat((float) v);
      }
    }
    data.write(samples.array());
    long[] covered = t.covered().toLongArray();
    data.writeInt(covered.length);
    for (long word : covered) {
      data.writeLong(word);
    }
    data.flush();
  }

  @Override
  public RasterContent decode(InputStream in) throws IOException {
    var key = WorkKeyCoder.of().decode(in);
    var work = TileWorkCoder.of().decode(in);
    DataInputStream data = new DataInputStream(in);
    int width = data.readInt();
    int height = data.readInt();
    int bands = data.readInt();
    int type = data.readByte();
    if (type < 0 || type >= TYPES.length) {
      throw new IOException("not a sample type: " + type);
    }
    SampleType sampleType = TYPES[type];
    boolean hasNodata = data.readBoolean();
    double nodata = data.readDouble();
    GeoTiffEncoder.Georeference where =
        new GeoTiffEncoder.Georeference(
            data.readInt(),
            data.readBoolean(),
            data.readDouble(),
            data.readDouble(),
            data.readDouble(),
            data.readDouble());
    byte[] raw = new byte[width * height * bands * (sampleType.bits() / 8)];
    data.readFully(raw);
    ByteBuffer samples = ByteBuffer.wrap(raw);
    double[] values = new double[width * height * bands];
    for (int i = 0; i < values.length; i++) {
      values[i] =
          switch (sampleType) {
            case UINT8 -> samples.get() & 0xff;
            case INT16 -> samples.getShort();
            case UINT16 -> samples.getShort() & 0xffff;
            case FLOAT32 -> samples.getFloat();
          };
    }
    int words = data.readInt();
    if (words < 0 || words > (width * height + 63) / 64) {
      throw new IOException(words + " words of coverage for a tile of " + width * height);
    }
    long[] covered = new long[words];
    for (int i = 0; i < words; i++) {
      covered[i] = data.readLong();
    }
    return new RasterContent(
        key,
        work,
        new RasterTile(
            width,
            height,
            bands,
            sampleType,
            hasNodata ? nodata : null,
            values,
            java.util.BitSet.valueOf(covered)),
        where);
  }

  @Override
  public void verifyDeterministic() {}
}
