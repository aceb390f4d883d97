package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;

/**
 * A feature as its id, WKB and properties: compact and deterministic, unlike Java serialization.
 */
final class FeatureCoder extends CustomCoder<Feature> {
  private static final long serialVersionUID = 1L;
  private static final FeatureCoder INSTANCE = new FeatureCoder();
  private static final StringUtf8Coder TEXT = StringUtf8Coder.of();
  private static final ByteArrayCoder BYTES = ByteArrayCoder.of();

  private FeatureCoder() {}

  static FeatureCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(Feature f, OutputStream out) throws IOException {
    TEXT.encode(f.id(), out);
    BYTES.encode(f.wkb(), out);
    TEXT.encode(f.properties(), out);
  }

  @Override
  public Feature decode(InputStream in) throws IOException {
    return new Feature(TEXT.decode(in), BYTES.decode(in), TEXT.decode(in));
  }

  @Override
  public void verifyDeterministic() {}
}
