package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * Reads a split of an unindexed source. A split that is part of its file is read and cut here for
 * the claimed tiles; a split that is the whole file (GeoJSON, FlatGeobuf without an index: formats
 * read from the start) is cut into parts at feature boundaries, sent on to {@link
 * ReadFeatures#PARTS} to be spread over the workers and read there, so that one file does not keep
 * one worker cutting while the others wait, and only small references cross the exchange.
 */
final class ReadSplitFn extends DoFn<SourceSplit, KV<String, TileInput>> {
  private final Map<String, ReadFeatures.SplitRead> sources;
  private final RetryPolicy retry;
  private final PCollectionView<ClaimedTiles> claimedTiles;
  private final FeatureCutting cutting;

  ReadSplitFn(
      Map<String, ReadFeatures.SplitRead> sources,
      RetryPolicy retry,
      PCollectionView<ClaimedTiles> claimedTiles,
      FeatureCutting cutting) {
    this.sources = sources;
    this.retry = retry;
    this.claimedTiles = claimedTiles;
    this.cutting = cutting;
  }

  @FinishBundle
  public void finishBundle() {
    cutting.flush();
  }

  @Teardown
  public void teardown() {
    cutting.close();
  }

  @ProcessElement
  public void process(ProcessContext c) throws IOException, SQLException {
    String layer = c.element().layer();
    ClaimedTiles claimed = c.sideInput(claimedTiles);
    if (!claimed.any(layer)) {
      return;
    }
    ReadFeatures.SplitRead spec = sources.get(layer);
    try (SplitReader source = spec.source().open(retry)) {
      // A whole file is cut into parts for the workers, unless it cannot be: then read here.
      boolean sentOn =
          c.element().range() == null
              && source.parts(c.element(), part -> c.output(ReadFeatures.PARTS, part));
      if (!sentOn) {
        readSplit(c, source, layer, new FeatureCutter(spec.cut()), claimed.of(layer));
      }
    } catch (UnreadablePartException e) {
      cutting.dropPieces();
      lose(c, layer, claimed, spec, e);
      return;
    } catch (SourceFormatException | java.io.EOFException e) {
      // Damage found while reading a whole file (a file that ends before what it says it holds
      // among it): any claimed tile of the layer may have lost features.
      cutting.dropPieces();
      lose(c, layer, claimed, spec, new UnreadablePartException(e.getMessage(), null, e));
      return;
    }
    cutting.sendPieces(c::output);
  }

  private void readSplit(
      ProcessContext c, SplitReader source, String layer, FeatureCutter cutter, TileFilter filter)
      throws IOException {
    source.forEach(
        c.element(),
        box -> cutter.mayMeet(box, filter),
        f -> {
          cutting.countRead();
          cutting.cut(
              layer, cutter, f, filter, c::output, d -> c.output(ReadFeatures.DEAD_LETTERS, d));
        },
        b -> c.output(ReadFeatures.DEAD_LETTERS, cutting.bad(layer, b)));
    cutting.ringsClosed(source.ringsClosed());
  }

  /**
   * The claimed tiles of {@code layer} that a part that could not be read could reach (all of them
   * when its box is unknown) are told so: they fail with the reason, the others go on.
   */
  private static void lose(
      ProcessContext c,
      String layer,
      ClaimedTiles claimed,
      ReadFeatures.SplitRead spec,
      UnreadablePartException e) {
    FeatureCutter cutter = new FeatureCutter(spec.cut());
    String reason = String.valueOf(e.getMessage());
    for (TileId tile : claimed.tiles(layer)) {
      if (e.box().isEmpty() || cutter.mayMeet(e.box().get(), ClaimedTiles.only(tile))) {
        c.output(KV.of(ReadFeatures.tileRef(layer, tile), (TileInput) new TileInput.Lost(reason)));
      }
    }
  }
}
