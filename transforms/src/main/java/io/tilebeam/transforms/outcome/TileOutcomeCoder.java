package io.tilebeam.transforms.outcome;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;

/**
 * A deterministic coder for {@link TileOutcome}: one byte says which kind, then the kind's own
 * coder ({@link PublishResultCoder}, {@link TileFailureCoder}).
 */
public final class TileOutcomeCoder extends AtomicCoder<TileOutcome> {

  private static final TileOutcomeCoder INSTANCE = new TileOutcomeCoder();
  private static final int PUBLISHED = 0;
  private static final int FAILED = 1;

  private TileOutcomeCoder() {}

  /** The coder. */
  public static TileOutcomeCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(TileOutcome value, OutputStream out) throws IOException {
    // Java 17 has no pattern switch; the interface is sealed to these two.
    if (value instanceof PublishResult r) {
      out.write(PUBLISHED);
      PublishResultCoder.of().encode(r, out);
    } else {
      out.write(FAILED);
      TileFailureCoder.of().encode((TileFailure) value, out);
    }
  }

  @Override
  public TileOutcome decode(InputStream in) throws IOException {
    int kind = in.read();
    return switch (kind) {
      case PUBLISHED -> PublishResultCoder.of().decode(in);
      case FAILED -> TileFailureCoder.of().decode(in);
      default -> throw new IOException("not a tile outcome: " + kind);
    };
  }

  @Override
  public void verifyDeterministic() {}
}
