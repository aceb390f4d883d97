package io.tilebeam.transforms.outcome;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;

/**
 * A deterministic coder for {@link FeatureFailure}: its five texts in a fixed order, each of which
 * may be null. Dead letters travel inside every rendered tile, where Java serialization's handle
 * table cost a tenth of a million-feature run.
 */
public final class FeatureFailureCoder extends AtomicCoder<FeatureFailure> {

  private static final FeatureFailureCoder INSTANCE = new FeatureFailureCoder();
  private static final NullableCoder<String> TEXT = NullableCoder.of(StringUtf8Coder.of());

  private FeatureFailureCoder() {}

  /** The coder. */
  public static FeatureFailureCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(FeatureFailure value, OutputStream out) throws IOException {
    TEXT.encode(value.layer(), out);
    TEXT.encode(value.featureId(), out);
    TEXT.encode(value.tile(), out);
    TEXT.encode(value.errorClass(), out);
    TEXT.encode(value.reason(), out);
  }

  @Override
  public FeatureFailure decode(InputStream in) throws IOException {
    return new FeatureFailure(
        TEXT.decode(in), TEXT.decode(in), TEXT.decode(in), TEXT.decode(in), TEXT.decode(in));
  }

  @Override
  public void verifyDeterministic() {}
}
