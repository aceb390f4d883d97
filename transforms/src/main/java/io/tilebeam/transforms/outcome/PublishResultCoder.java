package io.tilebeam.transforms.outcome;

import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKeyCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * A deterministic coder for {@link PublishResult}: its fields in a fixed order, the outcome as its
 * ordinal. Every published tile crosses the commit barrier as one, so Java serialization (class
 * descriptors and reflection for each) is not an option.
 */
public final class PublishResultCoder extends AtomicCoder<PublishResult> {

  private static final PublishResultCoder INSTANCE = new PublishResultCoder();
  private static final StringUtf8Coder TEXT = StringUtf8Coder.of();
  private static final VarLongCoder NUMBER = VarLongCoder.of();
  private static final PublishResult.Outcome[] OUTCOMES = PublishResult.Outcome.values();

  private PublishResultCoder() {}

  /** The coder. */
  public static PublishResultCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(PublishResult value, OutputStream out) throws IOException {
    WorkKeyCoder.of().encode(value.key(), out);
    TileWorkCoder.of().encode(value.work(), out);
    TEXT.encode(value.uri(), out);
    TEXT.encode(value.checksum(), out);
    NUMBER.encode(value.featureCount(), out);
    out.write(value.outcome().ordinal());
  }

  @Override
  public PublishResult decode(InputStream in) throws IOException {
    var key = WorkKeyCoder.of().decode(in);
    var work = TileWorkCoder.of().decode(in);
    String uri = TEXT.decode(in);
    String checksum = TEXT.decode(in);
    long features = NUMBER.decode(in);
    int outcome = in.read();
    if (outcome < 0 || outcome >= OUTCOMES.length) {
      throw new IOException("not a publish outcome: " + outcome);
    }
    return new PublishResult(key, work, uri, checksum, features, OUTCOMES[outcome]);
  }

  @Override
  public void verifyDeterministic() {}
}
