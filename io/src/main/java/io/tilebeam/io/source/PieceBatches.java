package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.tiling.TileId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.beam.sdk.values.KV;

/**
 * Pieces held per tile on their way to the join, so that the shuffle carries a few large records
 * per tile instead of one record per piece. A million-feature job cuts millions of pieces, and a
 * runner pays for every record whatever its size: the key encoded and compared in the sort, the
 * record framed, spilled and read back.
 *
 * <p>What is held is bounded: a tile's batch goes on when it holds {@link #TILE_BYTES}, and every
 * batch goes when all of them together hold {@link #HELD_BYTES}; a piece larger than {@link
 * PieceParts#PART_BYTES} goes on at once, in parts, so that no record of the join is much larger
 * than a batch (see {@link PieceParts} for why); the reading DoFns send the rest when a split, a
 * group or a bundle ends. The order of pieces within a tile does not matter: the renderer sorts a
 * tile's features.
 */
final class PieceBatches {

  /** Estimated bytes of one tile's batch that make it go on. */
  static final long TILE_BYTES = 256L << 10;

  /** Estimated bytes of all batches that make them all go on. */
  static final long HELD_BYTES = 16L << 20;

  /** Bytes an estimate adds to each piece for its objects and the record's framing. */
  private static final int PIECE_OVERHEAD = 64;

  // Keyed by layer and tile, not by the join's text key: that is made once a batch, not once a
  // piece.
  private final Map<LayerTile, Batch> held = new HashMap<>();
  private long heldBytes;

  /**
   * A tile of a layer. Its equality is written out: it is looked up once a piece, and a record's
   * generated one went through method handles that showed in profiles.
   */
  private record LayerTile(String layer, TileId tile) {
    String ref() {
      return ReadFeatures.tileRef(layer, tile);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof LayerTile t
          && tile.x() == t.tile.x()
          && tile.y() == t.tile.y()
          && tile.z() == t.tile.z()
          && layer.equals(t.layer);
    }

    @Override
    public int hashCode() {
      long h = (tile.x() * 31 + tile.y()) * 31 + tile.z();
      return Long.hashCode(h) * 31 + layer.hashCode();
    }
  }

  /** One tile's pieces held so far. */
  private static final class Batch {
    final List<FeaturePiece> pieces = new ArrayList<>();
    long bytes;
  }

  /**
   * Holds {@code piece} of {@code layer}'s {@code tile}, sending batches to {@code out} keyed by
   * {@link ReadFeatures#tileRef} when the bounds are reached.
   */
  void add(String layer, TileId tile, FeaturePiece piece, Consumer<KV<String, TileInput>> out) {
    LayerTile key = new LayerTile(layer, tile);
    long size = estimate(piece);
    if (size > PieceParts.PART_BYTES) {
      String ref = key.ref();
      for (TileInput.Part part : PieceParts.split(piece, PieceParts.PART_BYTES)) {
        out.accept(KV.of(ref, part));
      }
      return;
    }
    Batch batch = held.computeIfAbsent(key, t -> new Batch());
    batch.pieces.add(piece);
    batch.bytes += size;
    heldBytes += size;
    if (batch.bytes >= TILE_BYTES) {
      held.remove(key);
      heldBytes -= batch.bytes;
      out.accept(KV.of(key.ref(), new TileInput.Pieces(batch.pieces)));
    } else if (heldBytes >= HELD_BYTES) {
      sendAll(out);
    }
  }

  /** Sends every batch held, in the order of their keys, and holds nothing. */
  void sendAll(Consumer<KV<String, TileInput>> out) {
    if (held.isEmpty()) {
      return;
    }
    Map<String, Batch> byRef = new TreeMap<>();
    held.forEach((key, batch) -> byRef.put(key.ref(), batch));
    byRef.forEach((ref, batch) -> out.accept(KV.of(ref, new TileInput.Pieces(batch.pieces))));
    drop();
  }

  /** Forgets every batch held (their source failed; their tiles fail with it). */
  void drop() {
    held.clear();
    heldBytes = 0;
  }

  /** Whether nothing is held. */
  boolean isEmpty() {
    return held.isEmpty();
  }

  private static long estimate(FeaturePiece piece) {
    return piece.wkb().length
        + 2L * (piece.id().length() + piece.properties().length())
        + PIECE_OVERHEAD;
  }
}
