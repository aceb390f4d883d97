package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/** Gathers a tile's claim and pieces, read in one pass over the group. */
final class CollectTilesFn extends DoFn<KV<String, Iterable<TileInput>>, TilePieces> {
  @ProcessElement
  public void process(
      @Element KV<String, Iterable<TileInput>> joined, OutputReceiver<TilePieces> out) {
    // One pass over the group: a runner may not let a large group be iterated twice.
    List<FeaturePiece> pieces = new ArrayList<>();
    List<TileInput.Claim> claims = new ArrayList<>(1);
    for (TileInput in : joined.getValue()) {
      if (in instanceof TileInput.Pieces p) {
        pieces.addAll(p.pieces());
      } else if (in instanceof TileInput.Claim c) {
        claims.add(c);
      }
    }
    // Pieces without a claim (a group that failed after cutting) are dropped here.
    for (TileInput.Claim claim : claims) {
      out.output(new TilePieces(claim.key(), claim.work(), pieces));
    }
  }
}
