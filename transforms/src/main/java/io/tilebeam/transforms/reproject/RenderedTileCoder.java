package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.feature.FeatureTriples;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKeyCoder;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.FeatureFailureCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;

/**
 * A deterministic coder for {@link RenderedTile}: key, work, the features (id, geometry bytes,
 * properties), the five render counts and the dead letters, in a fixed order. Rendered tiles cross
 * from the render stage to the sinks; Java serialization of their features cost about a tenth of a
 * million-feature run.
 */
public final class RenderedTileCoder extends AtomicCoder<RenderedTile> {

  private static final RenderedTileCoder INSTANCE = new RenderedTileCoder();

  private RenderedTileCoder() {}

  /** The coder. */
  public static RenderedTileCoder of() {
    return INSTANCE;
  }

  private static final FeatureTriples.Parts<RenderedFeature> PARTS =
      new FeatureTriples.Parts<>(
          RenderedFeature::id, RenderedFeature::wkb, RenderedFeature::properties);

  @Override
  public void encode(RenderedTile value, OutputStream out) throws IOException {
    WorkKeyCoder.of().encode(value.key(), out);
    TileWorkCoder.of().encode(value.work(), out);
    FeatureTriples.encode(value.features(), PARTS, out);
    RenderStats s = value.stats();
    for (long count :
        new long[] {s.pieces(), s.cleaned(), s.repaired(), s.collapsed(), s.vertices()}) {
      VarLongCoder.of().encode(count, out);
    }
    VarIntCoder.of().encode(value.deadLetters().size(), out);
    for (FeatureFailure f : value.deadLetters()) {
      FeatureFailureCoder.of().encode(f, out);
    }
  }

  @Override
  public RenderedTile decode(InputStream in) throws IOException {
    var key = WorkKeyCoder.of().decode(in);
    var work = TileWorkCoder.of().decode(in);
    List<RenderedFeature> features = FeatureTriples.decode(in, "features", RenderedFeature::new);
    RenderStats stats =
        new RenderStats(
            VarLongCoder.of().decode(in),
            VarLongCoder.of().decode(in),
            VarLongCoder.of().decode(in),
            VarLongCoder.of().decode(in),
            VarLongCoder.of().decode(in));
    int d = FeatureTriples.count(in, "dead letters");
    List<FeatureFailure> dead = new ArrayList<>(Math.min(d, 1 << 16));
    for (int i = 0; i < d; i++) {
      dead.add(FeatureFailureCoder.of().decode(in));
    }
    return new RenderedTile(key, work, features, stats, dead);
  }

  @Override
  public void verifyDeterministic() {}
}
