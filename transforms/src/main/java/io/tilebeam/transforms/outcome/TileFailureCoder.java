package io.tilebeam.transforms.outcome;

import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKeyCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;

/**
 * A deterministic coder for {@link TileFailure}: key, work, error class and message in a fixed
 * order. Failures cross the commit barrier beside publish results; Java serialization of both cost
 * most of a large run's last stage.
 */
public final class TileFailureCoder extends AtomicCoder<TileFailure> {

  private static final TileFailureCoder INSTANCE = new TileFailureCoder();
  private static final StringUtf8Coder TEXT = StringUtf8Coder.of();

  private TileFailureCoder() {}

  /** The coder. */
  public static TileFailureCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(TileFailure value, OutputStream out) throws IOException {
    WorkKeyCoder.of().encode(value.key(), out);
    TileWorkCoder.of().encode(value.work(), out);
    TEXT.encode(value.errorClass(), out);
    TEXT.encode(value.message(), out);
  }

  @Override
  public TileFailure decode(InputStream in) throws IOException {
    return new TileFailure(
        WorkKeyCoder.of().decode(in),
        TileWorkCoder.of().decode(in),
        TEXT.decode(in),
        TEXT.decode(in));
  }

  @Override
  public void verifyDeterministic() {}
}
