package io.tilebeam.transforms.feature;

import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKeyCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;

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
    VarIntCoder.of().encode(value.pieces().size(), out);
    for (FeaturePiece p : value.pieces()) {
      StringUtf8Coder.of().encode(p.id(), out);
      ByteArrayCoder.of().encode(p.wkb(), out);
      StringUtf8Coder.of().encode(p.properties(), out);
    }
  }

  @Override
  public TilePieces decode(InputStream in) throws IOException {
    var key = WorkKeyCoder.of().decode(in);
    var work = TileWorkCoder.of().decode(in);
    int n = VarIntCoder.of().decode(in);
    if (n < 0) {
      throw new CoderException("a negative count of pieces: " + n);
    }
    List<FeaturePiece> pieces = new ArrayList<>(Math.min(n, 1 << 16));
    for (int i = 0; i < n; i++) {
      pieces.add(
          new FeaturePiece(
              StringUtf8Coder.of().decode(in),
              ByteArrayCoder.of().decode(in),
              StringUtf8Coder.of().decode(in)));
    }
    return new TilePieces(key, work, pieces);
  }

  @Override
  public void verifyDeterministic() {}
}
