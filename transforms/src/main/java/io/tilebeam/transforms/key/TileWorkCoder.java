package io.tilebeam.transforms.key;

import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * A deterministic coder for {@link TileWork}: its fields in a fixed order (strings as UTF-8,
 * numbers as variable-length integers). Equal work encodes to equal bytes because the params are
 * canonical JSON already.
 */
public final class TileWorkCoder extends AtomicCoder<TileWork> {

  private static final TileWorkCoder INSTANCE = new TileWorkCoder();

  private TileWorkCoder() {}

  /** The coder. */
  public static TileWorkCoder of() {
    return INSTANCE;
  }

  private static final StringUtf8Coder TEXT = StringUtf8Coder.of();
  private static final VarLongCoder NUMBER = VarLongCoder.of();

  @Override
  public void encode(TileWork value, OutputStream out) throws IOException {
    TEXT.encode(value.namespace(), out);
    NUMBER.encode((long) value.algorithmVersion(), out);
    TEXT.encode(value.layer(), out);
    TEXT.encode(value.tileMatrixSet(), out);
    NUMBER.encode((long) value.tile().z(), out);
    NUMBER.encode(value.tile().x(), out);
    NUMBER.encode(value.tile().y(), out);
    TEXT.encode(value.source(), out);
    TEXT.encode(value.sourceCrs(), out);
    TEXT.encode(value.targetCrs(), out);
    TEXT.encode(value.format(), out);
    TEXT.encode(value.params(), out);
  }

  @Override
  public TileWork decode(InputStream in) throws IOException {
    String namespace = TEXT.decode(in);
    int algorithm = Math.toIntExact(NUMBER.decode(in));
    String layer = TEXT.decode(in);
    String tms = TEXT.decode(in);
    int z = Math.toIntExact(NUMBER.decode(in));
    long x = NUMBER.decode(in);
    long y = NUMBER.decode(in);
    return new TileWork(
        namespace,
        algorithm,
        layer,
        tms,
        TileId.of(z, x, y),
        TEXT.decode(in),
        TEXT.decode(in),
        TEXT.decode(in),
        TEXT.decode(in),
        TEXT.decode(in));
  }

  @Override
  public void verifyDeterministic() {}

  /**
   * Equal values encode to equal bytes and the other way round, so runners may compare values
   * instead of their encodings (the DirectRunner otherwise encodes every element again).
   */
  @Override
  public boolean consistentWithEquals() {
    return true;
  }
}
