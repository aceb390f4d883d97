package io.tilebeam.transforms.tiling;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * A deterministic coder for {@link PlannedTile}: the layer as UTF-8, then z, x and y as
 * variable-length integers. Every planned tile crosses a shuffle once; Java serialization wrote
 * each with its class descriptors and read it back by reflection.
 */
public final class PlannedTileCoder extends AtomicCoder<PlannedTile> {

  private static final PlannedTileCoder INSTANCE = new PlannedTileCoder();
  private static final StringUtf8Coder TEXT = StringUtf8Coder.of();
  private static final VarLongCoder NUMBER = VarLongCoder.of();

  private PlannedTileCoder() {}

  /** The coder. */
  public static PlannedTileCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(PlannedTile value, OutputStream out) throws IOException {
    TEXT.encode(value.layer(), out);
    NUMBER.encode((long) value.tile().z(), out);
    NUMBER.encode(value.tile().x(), out);
    NUMBER.encode(value.tile().y(), out);
  }

  @Override
  public PlannedTile decode(InputStream in) throws IOException {
    String layer = TEXT.decode(in);
    int z = Math.toIntExact(NUMBER.decode(in));
    return new PlannedTile(layer, TileId.of(z, NUMBER.decode(in), NUMBER.decode(in)));
  }

  @Override
  public void verifyDeterministic() {}

  /** Equal tiles encode to equal bytes and the other way round. */
  @Override
  public boolean consistentWithEquals() {
    return true;
  }
}
