package io.tilebeam.io.source;

import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.tiling.TileId;
import java.io.EOFException;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Reads the features of a group of claimed tiles from its indexed source once, cuts them for the
 * group's tiles, and passes the claims on. A group whose source cannot be read fails its tiles; a
 * failure that may pass fails the bundle instead, so that the runner retries it.
 */
final class ReadGroupFn
    extends DoFn<KV<String, Iterable<KV<WorkKey, TileWork>>>, KV<String, TileInput>> {
  private final Map<String, ReadFeatures.IndexRead> sources;
  private final RetryPolicy retry;
  private final FeatureCutting cutting;
  private transient Map<String, IndexReader> open;

  ReadGroupFn(
      Map<String, ReadFeatures.IndexRead> sources, RetryPolicy retry, FeatureCutting cutting) {
    this.cutting = cutting;
    this.sources = sources;
    this.retry = retry;
  }

  @Setup
  public void setup() {
    open = new HashMap<>();
  }

  @ProcessElement
  public void process(
      @Element KV<String, Iterable<KV<WorkKey, TileWork>>> group, MultiOutputReceiver out)
      throws IOException, SQLException {
    List<KV<WorkKey, TileWork>> claims = new ArrayList<>();
    Set<TileId> tiles = new HashSet<>();
    for (KV<WorkKey, TileWork> claim : group.getValue()) {
      claims.add(claim);
      tiles.add(claim.getValue().tile());
    }
    String layer = claims.get(0).getValue().layer();
    ReadFeatures.IndexRead spec = sources.get(layer);
    TileId ancestor = TileGroups.ancestor(claims.get(0).getValue().tile(), spec.cut());
    TileFilter filter = of(tiles);
    FeatureCutter cutter = new FeatureCutter(spec.cut());
    IndexReader source = open.computeIfAbsent(layer, l -> spec.source().open(retry));
    List<FeatureFailure> bad = new ArrayList<>();
    long closedBefore = source.ringsClosed();
    try {
      source.forEachIn(
          TileGroups.queryBoxes(ancestor, spec.cut()),
          f -> {
            cutting.countRead();
            cutting.cut(layer, cutter, f, filter, out.get(ReadFeatures.INPUTS)::output, bad::add);
          },
          b -> bad.add(cutting.bad(layer, b)));
    } catch (SourceFormatException | EOFException e) {
      cutting.dropPieces();
      fail(claims, e, out);
      return;
    } catch (SQLException e) {
      cutting.dropPieces();
      if (PgConnections.passes(e)) {
        throw e;
      }
      fail(claims, e, out);
      return;
    }
    cutting.sendPieces(out.get(ReadFeatures.INPUTS)::output);
    cutting.ringsClosed(source.ringsClosed() - closedBefore);
    bad.forEach(f -> out.get(ReadFeatures.DEAD_LETTERS).output(f));
    for (KV<WorkKey, TileWork> claim : claims) {
      TileWork w = claim.getValue();
      out.get(ReadFeatures.INPUTS)
          .output(
              KV.of(ReadFeatures.tileRef(layer, w.tile()), new TileInput.Claim(claim.getKey(), w)));
    }
  }

  /**
   * Every tile of the group fails with the reason; pieces held are dropped, and pieces already sent
   * (a batch that was full) find no claim.
   */
  private static void fail(
      List<KV<WorkKey, TileWork>> claims, Exception e, MultiOutputReceiver out) {
    for (KV<WorkKey, TileWork> claim : claims) {
      out.get(ReadFeatures.FAILED)
          .output(
              new TileFailure(
                  claim.getKey(), claim.getValue(), "source", String.valueOf(e.getMessage())));
    }
  }

  private static TileFilter of(Set<TileId> tiles) {
    Set<Long> columns = new HashSet<>();
    tiles.forEach(t -> columns.add(((long) t.z() << 40) | t.x()));
    return new TileFilter() {
      @Override
      public boolean wantsColumn(int z, long x) {
        return columns.contains(((long) z << 40) | x);
      }

      @Override
      public boolean wants(int z, long x, long y) {
        return tiles.contains(TileId.of(z, x, y));
      }
    };
  }

  @FinishBundle
  public void finishBundle() {
    cutting.flush();
  }

  @Teardown
  public void teardown() throws SQLException {
    cutting.close();
    if (open != null) {
      for (IndexReader s : open.values()) {
        s.close();
      }
    }
  }
}
