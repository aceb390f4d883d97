package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.outcome.TileFailure;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Gathers a tile's claim and pieces, read in one pass over the group, large pieces put together
 * from their parts ({@link PieceParts}); a tile that lost features (a part of its source could not
 * be read, a piece came incomplete) fails with the reason instead ({@link ReadFeatures#FAILED}).
 */
final class CollectTilesFn extends DoFn<KV<String, Iterable<TileInput>>, TilePieces> {
  @ProcessElement
  public void process(@Element KV<String, Iterable<TileInput>> joined, MultiOutputReceiver out) {
    // One pass over the group: a runner may not let a large group be iterated twice.
    List<FeaturePiece> pieces = new ArrayList<>();
    List<TileInput.Claim> claims = new ArrayList<>(1);
    PieceParts.Assembler parts = null;
    String lost = null;
    for (TileInput in : joined.getValue()) {
      if (in instanceof TileInput.Pieces p) {
        pieces.addAll(p.pieces());
      } else if (in instanceof TileInput.Part part) {
        if (parts == null) {
          parts = new PieceParts.Assembler();
        }
        parts.add(part);
      } else if (in instanceof TileInput.Claim c) {
        claims.add(c);
      } else if (in instanceof TileInput.Lost l && lost == null) {
        lost = l.reason();
      }
    }
    if (parts != null && lost == null && !claims.isEmpty()) {
      lost = parts.pieces(pieces::add);
    }
    // Pieces without a claim (a group that failed after cutting) are dropped here.
    for (TileInput.Claim claim : claims) {
      if (lost != null) {
        out.get(ReadFeatures.FAILED)
            .output(new TileFailure(claim.key(), claim.work(), "source", lost));
      } else {
        out.get(ReadFeatures.TILES).output(new TilePieces(claim.key(), claim.work(), pieces));
      }
    }
  }
}
