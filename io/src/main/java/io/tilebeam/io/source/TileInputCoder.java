package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.FeatureTriples;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKeyCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;

/**
 * A compact, deterministic coder for {@link TileInput}: a tag byte, then the claim's key and work,
 * or the count of pieces and each one's id, WKB and properties. Pieces are what the shuffle carries
 * between reading and rendering, so every byte here is a byte spilled to disk per piece: Java
 * serialization would add a class description to each.
 */
final class TileInputCoder extends AtomicCoder<TileInput> {

  private static final TileInputCoder INSTANCE = new TileInputCoder();
  private static final int CLAIM = 0;
  private static final int PIECES = 2;
  private static final int LOST = 3;

  private TileInputCoder() {}

  static TileInputCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(TileInput value, OutputStream out) throws IOException {
    if (value instanceof TileInput.Claim c) {
      out.write(CLAIM);
      WorkKeyCoder.of().encode(c.key(), out);
      TileWorkCoder.of().encode(c.work(), out);
    } else if (value instanceof TileInput.Pieces p) {
      out.write(PIECES);
      FeatureTriples.encode(p.pieces(), FeaturePiece.PARTS, out);
    } else if (value instanceof TileInput.Lost l) {
      out.write(LOST);
      StringUtf8Coder.of().encode(l.reason(), out);
    }
  }

  @Override
  public TileInput decode(InputStream in) throws IOException {
    int tag = in.read();
    if (tag == CLAIM) {
      return new TileInput.Claim(WorkKeyCoder.of().decode(in), TileWorkCoder.of().decode(in));
    }
    if (tag == PIECES) {
      return new TileInput.Pieces(FeatureTriples.decode(in, "pieces", FeaturePiece::new));
    }
    if (tag == LOST) {
      return new TileInput.Lost(StringUtf8Coder.of().decode(in));
    }
    throw new CoderException("not a tile input: tag " + tag);
  }

  @Override
  public void verifyDeterministic() {}
}
