package io.tilebeam.io.source;

import io.tilebeam.transforms.digest.Sha256;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.FeatureTriples;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A piece too large to be one record of the join, sent as parts of at most {@link #PART_BYTES} and
 * put together again on the other side.
 *
 * <p>Why: Flink sorts the join's records in buffers of its managed memory, and refuses a record
 * larger than one buffer ("The record exceeds the maximum size of a sort buffer"), which fails the
 * whole job. A buffer is a fraction of the memory a slot has, so the largest record that passes
 * depends on the memory settings, and one piece of a detailed coastline at a low zoom (a country
 * whole, tens of megabytes of WKB) would pass or not depending on them. With every record under
 * {@link #PART_BYTES} plus one batch ({@link PieceBatches#TILE_BYTES}), the join passes pieces of
 * any size in a few megabytes of sort memory.
 */
final class PieceParts {

  /** Bytes of a piece's coding in one part; a piece estimated larger is sent in parts. */
  static final int PART_BYTES = 256 << 10;

  private PieceParts() {}

  /**
   * The parts of {@code piece}: its coding (its id, WKB and properties, as {@link FeatureTriples}
   * writes a list of one) cut into slices of {@code partBytes}, each with the coding's digest.
   */
  static List<TileInput.Part> split(FeaturePiece piece, int partBytes) {
    byte[] coding = encode(piece);
    MessageDigest d = Sha256.create();
    byte[] token = d.digest(coding);
    int count = Math.max(1, (coding.length + partBytes - 1) / partBytes);
    List<TileInput.Part> parts = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int from = i * partBytes;
      int to = Math.min(coding.length, from + partBytes);
      parts.add(
          new TileInput.Part(
              piece.id(), token, i, count, java.util.Arrays.copyOfRange(coding, from, to)));
    }
    return parts;
  }

  private static byte[] encode(FeaturePiece piece) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(piece.wkb().length + 64);
    try {
      FeatureTriples.encode(List.of(piece), FeaturePiece.PARTS, out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot happen writing to memory", e);
    }
    return out.toByteArray();
  }

  /**
   * Gathers the parts a tile's group holds, in any order, and gives back the pieces they make. Two
   * identical pieces (a feature repeated in the source, the same id and bytes) have the same
   * digest: their parts come twice each and make the piece twice, as two pieces would.
   */
  static final class Assembler {
    private final Map<ByteBuffer, Parts> byToken = new LinkedHashMap<>();

    /** Holds one part. */
    void add(TileInput.Part part) {
      Parts parts =
          byToken.computeIfAbsent(
              ByteBuffer.wrap(part.token()), t -> new Parts(part.id(), part.count()));
      parts.add(part);
    }

    /**
     * Passes every piece the parts make to {@code out}. Returns null when all were whole, or what
     * was wrong (a part missing, parts that disagree), for the tile to fail with instead of being
     * published without a feature.
     */
    String pieces(Consumer<FeaturePiece> out) {
      for (Parts parts : byToken.values()) {
        String wrong = parts.wrong();
        if (wrong != null) {
          return wrong;
        }
        FeaturePiece piece = parts.piece();
        for (int i = 0; i < parts.seen[0]; i++) {
          out.accept(piece);
        }
      }
      return null;
    }
  }

  /** The parts of one piece seen so far. */
  private static final class Parts {
    private final String id;
    private final byte[][] slices;
    private final int[] seen;
    private boolean mixed;

    Parts(String id, int count) {
      this.id = id;
      this.slices = new byte[count][];
      this.seen = new int[count];
    }

    void add(TileInput.Part part) {
      if (part.count() != slices.length) {
        mixed = true; // the same digest with another count: not parts of one piece
        return;
      }
      slices[part.index()] = part.bytes();
      seen[part.index()]++;
    }

    /** Null when every part came as often as the first; else what is wrong. */
    String wrong() {
      if (mixed) {
        return "parts of pieces of feature " + id + " disagree on their count";
      }
      for (int i = 0; i < seen.length; i++) {
        if (seen[i] < 1 || seen[i] != seen[0]) {
          return "the piece of feature "
              + id
              + " came incomplete from the join: part "
              + (i + 1)
              + " of "
              + seen.length
              + " seen "
              + seen[i]
              + " times, part 1 "
              + seen[0];
        }
      }
      return null;
    }

    FeaturePiece piece() {
      int length = 0;
      for (byte[] s : slices) {
        length += s.length;
      }
      byte[] coding = new byte[length];
      int at = 0;
      for (byte[] s : slices) {
        System.arraycopy(s, 0, coding, at, s.length);
        at += s.length;
      }
      try {
        List<FeaturePiece> one =
            FeatureTriples.decode(new ByteArrayInputStream(coding), "pieces", FeaturePiece::new);
        if (one.size() != 1) {
          throw new IllegalStateException(
              "the parts of a piece of " + id + " make " + one.size() + " pieces");
        }
        return one.get(0);
      } catch (IOException e) {
        throw new UncheckedIOException("the parts of a piece of " + id + " do not decode", e);
      }
    }
  }
}
