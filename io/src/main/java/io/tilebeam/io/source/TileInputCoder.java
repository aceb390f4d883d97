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
import org.apache.beam.sdk.coders.VarIntCoder;

/**
 * A compact, deterministic coder for {@link TileInput}: a tag byte, then the claim's key and work,
 * or the count of pieces and each one's id, WKB and properties, or a part's id, digest, place and
 * bytes. Pieces are what the shuffle carries between reading and rendering, so every byte here is a
 * byte spilled to disk per piece: Java serialization would add a class description to each.
 */
final class TileInputCoder extends AtomicCoder<TileInput> {

  private static final TileInputCoder INSTANCE = new TileInputCoder();
  private static final int CLAIM = 0;
  private static final int PIECES = 2;
  private static final int LOST = 3;
  private static final int PART = 4;

  /** The most bytes a part's slice is read as: a length beyond it is not this coding. */
  private static final int MAX_PART_BYTES = 16 << 20;

  /**
   * The most parts a piece is read as having: its coding is one array, at most 2 GiB, which is
   * 8,192 parts of {@link PieceParts#PART_BYTES}; a count beyond it is not this coding.
   */
  private static final int MAX_PARTS = 1 << 16;

  private static final int TOKEN_BYTES = 32;

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
    } else if (value instanceof TileInput.Part p) {
      out.write(PART);
      StringUtf8Coder.of().encode(p.id(), out);
      out.write(p.token());
      VarIntCoder.of().encode(p.index(), out);
      VarIntCoder.of().encode(p.count(), out);
      VarIntCoder.of().encode(p.bytes().length, out);
      out.write(p.bytes());
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
    if (tag == PART) {
      return part(in);
    }
    if (tag == LOST) {
      return new TileInput.Lost(StringUtf8Coder.of().decode(in));
    }
    throw new CoderException("not a tile input: tag " + tag);
  }

  /** A part, its lengths checked before anything of their size is made. */
  private static TileInput.Part part(InputStream in) throws IOException {
    String id = StringUtf8Coder.of().decode(in);
    byte[] token = exactly(in, TOKEN_BYTES, "a part's digest");
    int index = VarIntCoder.of().decode(in);
    int count = VarIntCoder.of().decode(in);
    int length = VarIntCoder.of().decode(in);
    if (length < 0 || length > MAX_PART_BYTES) {
      throw new CoderException("a part of a piece of " + id + " of " + length + " bytes");
    }
    if (count > MAX_PARTS) {
      throw new CoderException("a piece of " + id + " in " + count + " parts");
    }
    byte[] bytes = exactly(in, length, "a part of a piece of " + id);
    try {
      return new TileInput.Part(id, token, index, count, bytes);
    } catch (IllegalArgumentException e) {
      throw new CoderException(e.getMessage(), e);
    }
  }

  private static byte[] exactly(InputStream in, int length, String what) throws IOException {
    byte[] bytes = new byte[length];
    int read = in.readNBytes(bytes, 0, length);
    if (read != length) {
      throw new CoderException(what + " cut short: " + read + " of " + length + " bytes");
    }
    return bytes;
  }

  @Override
  public void verifyDeterministic() {}
}
