package io.tilebeam.transforms.key;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;

/** A deterministic coder for {@link WorkKey}, usable as a grouping key. */
public final class WorkKeyCoder extends AtomicCoder<WorkKey> {

  private static final WorkKeyCoder INSTANCE = new WorkKeyCoder();

  private WorkKeyCoder() {}

  /** The coder. */
  public static WorkKeyCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(WorkKey value, OutputStream out) throws IOException {
    StringUtf8Coder.of().encode(value.value(), out);
  }

  @Override
  public WorkKey decode(InputStream in) throws IOException {
    return new WorkKey(StringUtf8Coder.of().decode(in));
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
