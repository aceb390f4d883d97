package io.tilebeam.transforms.key;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;

/** A deterministic coder for {@link TileWork}: its canonical JSON as UTF-8. */
public final class TileWorkCoder extends AtomicCoder<TileWork> {

  private static final TileWorkCoder INSTANCE = new TileWorkCoder();

  private TileWorkCoder() {}

  /** The coder. */
  public static TileWorkCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(TileWork value, OutputStream out) throws IOException {
    StringUtf8Coder.of().encode(value.encode(), out);
  }

  @Override
  public TileWork decode(InputStream in) throws IOException {
    return TileWork.decode(StringUtf8Coder.of().decode(in));
  }

  @Override
  public void verifyDeterministic() {}
}
