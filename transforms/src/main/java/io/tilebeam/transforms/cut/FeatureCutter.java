package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CoordinateTransformer;
import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.feature.Antimeridian;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.repair.GeometryRepair;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrix;
import java.util.List;
import java.util.function.BiConsumer;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.opengis.referencing.operation.TransformException;

/**
 * Cuts source features into their tile pieces for every zoom of a layer. Each feature is read once,
 * cut at the antimeridian when its CRS is geographic ({@link Antimeridian}), transformed into the
 * matrix set's CRS once, made valid when it is not ({@link GeometryRepair}, cheapest fix first:
 * most real data only needs self-touching rings split), and cut once per zoom ({@link TileCutter});
 * only the pieces of wanted tiles are handed on. One instance serves one layer and one thread.
 *
 * <p>A piece goes to a tile when the feature's geometry in the matrix set's CRS reaches into the
 * buffered tile. Where the source CRS does not map boxes to boxes (a UTM source in Web Mercator
 * tiles), each component must also meet the tile's search boxes ({@link FeatureTiles}), the rule an
 * index read answers, so that a single pass and per-tile reads give the same pieces.
 */
public final class FeatureCutter {

  /**
   * What cutting one feature found besides its pieces.
   *
   * @param empty whether its geometry was empty (nothing was cut)
   * @param outsideDomain its coordinates outside the source CRS's domain of validity
   * @param pieces the pieces handed on
   * @param repair how its geometry was made valid before cutting ({@code VALID} when it was)
   * @param belowMinSize the zooms (bit {@code z} set for zoom {@code z}) at which the feature left
   *     no piece in any wanted tile because every part of it there was smaller than the minimum
   *     size ({@link CutSpec#minSizePixels()}): it is missing from those zooms' tiles
   */
  public record Cut(
      boolean empty,
      long outsideDomain,
      long pieces,
      GeometryRepair.Rung repair,
      long belowMinSize) {

    /** Whether the feature was dropped as too small at zoom {@code z}. */
    public boolean droppedAt(int z) {
      return z < Long.SIZE && (belowMinSize & (1L << z)) != 0;
    }
  }

  private final CutSpec spec;
  private final TileCutter cutter;
  private final CoordinateTransformer toTms;
  private final CoordinateTransformer fromTms;
  private final GeometryRepair repair = GeometryRepair.floating();
  private final boolean geographic;
  private final boolean gated;
  private final Envelope domain;
  private final WKBReader reader = new WKBReader();

  /** A cutter for one layer. */
  public FeatureCutter(CutSpec spec) {
    this.spec = spec;
    this.cutter = new TileCutter(spec.tileMatrixSet(), spec.bufferPixels(), spec.minSizePixels());
    this.toTms =
        new CoordinateTransformer(
            CrsTransforms.operation(spec.sourceCrs(), spec.tileMatrixSet().crs())
                .getMathTransform());
    this.fromTms =
        new CoordinateTransformer(
            CrsTransforms.operation(spec.tileMatrixSet().crs(), spec.sourceCrs())
                .getMathTransform());
    this.geographic = Antimeridian.appliesTo(spec.sourceCrs());
    this.gated = !FeatureTiles.boxPreserving(spec.sourceCrs(), spec.tileMatrixSet());
    this.domain = domainOf(spec);
  }

  /**
   * Boxes spanning more tiles than this at a zoom are not looked at tile by tile: they may meet.
   */
  private static final long MAX_TILES_LOOKED_AT = 1 << 16;

  /**
   * Whether features lying in {@code box} (in the source CRS) may have a piece in a tile {@code
   * filter} wants: false only when, at every zoom, no wanted tile (grown by the buffer) meets the
   * box. Lets a reader skip a part of its source (a Parquet row group) by its statistics; when the
   * box cannot be placed, or spans too many tiles to look at, the answer is yes.
   */
  public boolean mayMeet(Bounds box, TileFilter filter) {
    List<Bounds> inTms;
    try {
      inTms = CrsTransforms.transform(box, spec.sourceCrs(), spec.tileMatrixSet().crs());
    } catch (TransformException | RuntimeException e) {
      return true;
    }
    for (Bounds b : inTms) {
      if (!Double.isFinite(b.minX()) || !Double.isFinite(b.maxY())) {
        return true;
      }
      for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
        if (meets(b, z, filter)) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean meets(Bounds b, int z, TileFilter filter) {
    TileMatrix m = spec.tileMatrixSet().matrix(z);
    Stripes columns = Stripes.columns(m, spec.bufferPixels());
    Stripes rows = Stripes.rows(m, spec.bufferPixels());
    long c0 = columns.first(b.minX(), b.maxX());
    long c1 = columns.last(b.minX(), b.maxX());
    long r0 = rows.first(b.minY(), b.maxY());
    long r1 = rows.last(b.minY(), b.maxY());
    if (c0 < 0 || r0 < 0 || c1 < c0 || r1 < r0) {
      return false;
    }
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > MAX_TILES_LOOKED_AT) {
      return true;
    }
    for (long c = c0; c <= c1; c++) {
      if (!filter.wantsColumn(z, c)) {
        continue;
      }
      for (long r = r0; r <= r1; r++) {
        if (filter.wants(z, c, r)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Cuts {@code feature} for every zoom and hands each wanted tile's piece to {@code sink}, zoom by
   * zoom in tile order.
   *
   * @throws TileDataException when the feature cannot be read or placed (its WKB is unreadable, it
   *     circles a pole, a coordinate has no place in the matrix set's CRS)
   */
  public Cut cut(Feature feature, TileFilter filter, BiConsumer<TileId, FeaturePiece> sink)
      throws TileDataException {
    Geometry source = feature.takeDecoded();
    if (source == null) {
      try {
        source = reader.read(feature.wkb());
      } catch (ParseException e) {
        throw new TileDataException("geometry", "unreadable WKB: " + e.getMessage(), e);
      }
    }
    if (source.isEmpty()) {
      return new Cut(true, 0, 0, GeometryRepair.Rung.VALID, 0);
    }
    if (geographic) {
      try {
        source = Antimeridian.split(source);
      } catch (IllegalArgumentException e) {
        throw new TileDataException("geometry", e.getMessage(), e);
      }
    }
    long outside = outsideDomain(source);
    Geometry inTms;
    try {
      inTms = toTms.apply(source);
    } catch (TransformException e) {
      throw new TileDataException("transform", "cannot be placed: " + e.getMessage(), e);
    }
    if (!gated) {
      // Only the gate needs the source geometry again: a large feature's copy is let go before
      // the repair, the heaviest step, makes more.
      source = null;
    }
    // Cutting joins rings along tile edges, which needs valid rings; a feature is checked once
    // here rather than in every piece of every zoom. Pieces whose renderer unites what their
    // rings wind need no valid rings: the source is cut as it is.
    boolean wound = spec.woundPieces() && woundFits(inTms);
    GeometryRepair.Repaired valid =
        wound
            ? new GeometryRepair.Repaired(inTms, GeometryRepair.Rung.WOUND)
            : repair.repair(inTms);
    inTms = valid.geometry();
    if (gated && valid.rung() != GeometryRepair.Rung.VALID && !wound) {
      // The repair may have split or merged components: take them back to the source CRS.
      try {
        source = fromTms.apply(inTms);
      } catch (TransformException e) {
        throw new TileDataException("transform", "cannot be placed: " + e.getMessage(), e);
      }
    }
    ComponentGate gate = gated ? gate(source) : ComponentGate.ALL;
    GeometryRepair.Rung rung = valid.rung();
    long[] pieces = {0};
    long belowMinSize = 0;
    // Each ring's points and its simplification at every zoom's tolerance, found once.
    TileCutter.Prepared prepared = cutter.prepare(inTms, spec.maxZoom(), spec.simplifyPixels());
    // The geometries are let go before the zooms are cut: what the cut needs is in `prepared` and
    // the gate, and a large feature's JTS objects, kept through its cut, outlived young
    // collections.
    source = null;
    inTms = null;
    valid = null;
    // Pieces cut from the valid geometry as it is (nothing simplified or dropped) are valid before
    // rounding, which lets the piece itself tell whether rounding kept it so.
    boolean exact = spec.simplifyPixels() == 0 && spec.minSizePixels() == 0;
    for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
      long before = pieces[0];
      long specks =
          cutter.cut(
              prepared,
              z,
              spec.simplifyPixels(),
              filter,
              gate,
              wound,
              (tile, piece) -> {
                pieces[0]++;
                sink.accept(
                    tile,
                    new FeaturePiece(
                        feature.id(),
                        piece.encoded(spec.gridDigits(), exact),
                        feature.properties()));
              });
      if (specks > 0 && pieces[0] == before && z < Long.SIZE) {
        belowMinSize |= 1L << z;
      }
    }
    return new Cut(false, outside, pieces[0], rung, belowMinSize);
  }

  /**
   * Whether {@code g} can be cut as its rings wind: a polygon or multi-polygon (a collection with
   * lines or points is made valid as a whole, as before) whose coordinates all have exact grid
   * steps, so that every piece of it is a grid piece that says it is wound ({@link GridPiece}).
   */
  private boolean woundFits(Geometry g) {
    if (!GeometryRepair.isPolygonal(g)) {
      return false;
    }
    Envelope e = g.getEnvelopeInternal();
    double largest =
        Math.max(
            Math.max(Math.abs(e.getMinX()), Math.abs(e.getMaxX())),
            Math.max(Math.abs(e.getMinY()), Math.abs(e.getMaxY())));
    // Clipped slices lie within the feature's bounds; a factor of two spares the edge case.
    return largest * 2 * Math.pow(10, spec.gridDigits()) < 0x1p52;
  }

  /** The search-box rule for each component of the source geometry. */
  private ComponentGate gate(Geometry source) {
    List<Envelope> envelopes =
        TileCutter.components(source).stream().map(Geometry::getEnvelopeInternal).toList();
    return (component, tile) ->
        FeatureTiles.meetsSearchBoxes(
            envelopes.get(component),
            tile,
            spec.sourceCrs(),
            spec.tileMatrixSet(),
            spec.bufferPixels());
  }

  /**
   * How many coordinates lie outside the source CRS's domain of validity: they are still
   * transformed (the formulas may hold there), but the report says how many there were.
   */
  private long outsideDomain(Geometry g) {
    if (domain == null) {
      return 0;
    }
    long[] n = {0};
    g.apply(
        new CoordinateSequenceFilter() {
          @Override
          public void filter(CoordinateSequence seq, int i) {
            if (!domain.contains(seq.getX(i), seq.getY(i))) {
              n[0]++;
            }
          }

          @Override
          public boolean isDone() {
            return false;
          }

          @Override
          public boolean isGeometryChanged() {
            return false;
          }
        });
    return n[0];
  }

  /** The source CRS's domain of validity in its own (east/north) coordinates, when SIS knows it. */
  private static Envelope domainOf(CutSpec spec) {
    double[] box = CrsFacts.domainOfValidity(spec.sourceCrs());
    return box == null ? null : new Envelope(box[0], box[2], box[1], box[3]);
  }
}
