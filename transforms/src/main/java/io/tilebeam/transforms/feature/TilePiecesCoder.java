package io.tilebeam.transforms.feature;

import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKeyCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;

/**
 * A deterministic coder for {@link TilePieces}: key, work, then the pieces (id, geometry bytes,
 * properties) in their order. A tile of a million-feature job carries thousands of pieces, and Java
 * serialization looked every one of them up in its handle table.
 */
public final class TilePiecesCoder extends AtomicCoder<TilePieces> {

  private static final TilePiecesCoder INSTANCE = new TilePiecesCoder();

  private TilePiecesCoder() {}

  /** The coder. */
  public static TilePiecesCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(TilePieces value, OutputStream out) throws IOException {
    WorkKeyCoder.of().encode(value.key(), out);
    TileWorkCoder.of().encode(value.work(), out);
    FeatureTriples.encode(value.pieces(), FeaturePiece.PARTS, out);
  }

  @Override
  public TilePieces decode(InputStream in) throws IOException {
    var key = WorkKeyCoder.of().decode(in);
    var work = TileWorkCoder.of().decode(in);
    return new TilePieces(key, work, FeatureTriples.decode(in, "pieces", FeaturePiece::new));
  }

  @Override
  public void verifyDeterministic() {}
}
