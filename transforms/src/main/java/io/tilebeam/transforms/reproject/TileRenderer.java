package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.crs.CoordinateTransformer;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.cut.GridPiece;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.feature.WkbBytes;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.repair.GeometryRepair;
import io.tilebeam.transforms.repair.GridUnion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.opengis.referencing.operation.TransformException;

/**
 * Finishes one tile from its features' pieces (already cut to the buffered tile in the matrix set's
 * CRS): each piece goes to the target CRS, is rounded to the layer's precision (or onto the tile's
 * grid, {@link TileGrid}), checked for validity and repaired only when the check fails ({@link
 * GeometryRepair}). Features come out sorted by id, so equal work gives equal content. A piece that
 * cannot be used goes to the tile's dead letters with its id and reason; one with nothing left
 * after rounding is counted. A piece the cutter already rounded and found valid ({@link
 * GridPiece#keptValid}) is taken as it is.
 */
public final class TileRenderer {

  private static final Comparator<RenderedFeature> ORDER =
      Comparator.comparing(RenderedFeature::id)
          .thenComparing(RenderedFeature::wkb, Arrays::compare)
          .thenComparing(RenderedFeature::properties);

  private final RenderSpec spec;
  private final CoordinateTransformer toTarget;
  private final GeometryRounder rounder;
  private final GeometryRounder gridRounder = new GeometryRounder(0);
  private final GeometryRepair repair;
  private final GeometryFactory factory = new GeometryFactory();

  /** Points from which a polygonal piece rounded onto a tile's grid goes to the union unchecked. */
  private static final int LIKELY_FOLDED_POINTS = 1024;

  /** A renderer for one layer. */
  public TileRenderer(RenderSpec spec) {
    this.spec = spec;
    this.toTarget =
        new CoordinateTransformer(
            CrsTransforms.operation(spec.tileMatrixSet().crs(), spec.targetCrs())
                .getMathTransform());
    this.rounder = new GeometryRounder(spec.precisionDigits());
    this.repair = GeometryRepair.onGrid(spec.precisionDigits());
  }

  /**
   * A piece in the target CRS finished: rounded, valid; null when rounding left nothing of it. Onto
   * a tile's grid, each coordinate is rounded alone first, which leaves most pieces valid for the
   * cost of one check; a polygonal piece that rounding folded (or a large one, which nearly always
   * has) becomes the area its rings wind, snap-rounded onto the grid in one sweep ({@link
   * GridUnion}). Only if that fails (or off a grid) is a piece repaired at the layer's precision,
   * then rounded onto the grid again, or snap-rounded onto it (which keeps it valid there) if that
   * folds it once more.
   */
  private GeometryRepair.Repaired finish(Geometry target, TileGrid grid, boolean wound)
      throws TileDataException {
    if (grid != null) {
      // A wound polygonal piece goes back to the CRS from its union (rounding keeps it polygonal or
      // leaves nothing), never from its own geometry: that is moved onto the grid, not copied.
      boolean movedToGrid = wound && GeometryRepair.isPolygonal(target);
      Geometry inUnits = movedToGrid ? grid.toGridInPlace(target) : grid.toGrid(target);
      // A large polygonal piece has nearly always folded somewhere (of the pieces of
      // countries-land-10m at zooms 0-5 with this many points, 98 % had): it goes straight to the
      // union, which costs three checks, rather than a check that only finds the fold first. The
      // union takes the piece as it is, so its rounded copy is not made, only counted.
      boolean likelyFolded =
          inUnits.getNumPoints() >= LIKELY_FOLDED_POINTS
              && gridRounder.roundedPoints(inUnits) >= LIKELY_FOLDED_POINTS;
      Geometry onGrid = likelyFolded ? null : gridRounder.round(inUnits);
      if (onGrid != null && onGrid.isEmpty()) {
        return null;
      }
      boolean polygonal = likelyFolded || GeometryRepair.isPolygonal(onGrid);
      // Wound rings, valid as they read, are the area they wind only if rounding dropped none
      // (a collapsed shell takes the holes hung on it along).
      boolean checkable = !likelyFolded && (!wound || rings(onGrid) == rings(inUnits));
      if (checkable && GeometryRepair.valid(onGrid)) {
        return new GeometryRepair.Repaired(onGrid, GeometryRepair.Rung.VALID);
      }
      if (polygonal) {
        // Folded by rounding (islands that simplification moved onto each other, a ring across
        // itself), or rings as they wind: the area the rings wind, snap-rounded in one sweep, is
        // valid by construction.
        // Only the union reads wound rings right: its failure is the piece's (a dead letter).
        GridUnion.Result union = wound ? GridUnion.unite(inUnits) : union(inUnits);
        if (union != null && union.geometry().isEmpty()) {
          return null;
        }
        // Valid by construction unless touching rings cut a polygon in two, which the union
        // finds itself: no check of the whole piece.
        if (union != null && union.valid()) {
          return new GeometryRepair.Repaired(union.geometry(), GeometryRepair.Rung.CLEANED);
        }
        if (wound) {
          // The repair below starts from the area the rings wind, not from the rings.
          target = grid.fromGrid(union.geometry());
        }
      }
    }
    Geometry rounded = rounder.round(target);
    if (rounded.isEmpty()) {
      return null;
    }
    GeometryRepair.Repaired r = repair.repair(rounded);
    if (grid == null) {
      return r;
    }
    GeometryRepair.Rung rung =
        r.rung() == GeometryRepair.Rung.VALID ? GeometryRepair.Rung.CLEANED : r.rung();
    // Repaired, the piece often rounds onto the grid coordinate by coordinate without folding
    // again (the fold was an overlap the repair merged): one check spares the snap-rounding.
    Geometry pointwise = gridRounder.round(grid.toGrid(r.geometry()));
    if (!pointwise.isEmpty() && GeometryRepair.valid(pointwise)) {
      return new GeometryRepair.Repaired(pointwise, rung);
    }
    Geometry snapped = grid.snap(r.geometry());
    if (snapped.isEmpty()) {
      return null;
    }
    // Folded by rounding alone: a rounding artefact, cleaned; else repaired as the repair says.
    return new GeometryRepair.Repaired(snapped, rung);
  }

  /** The number of polygon rings in {@code g}. */
  private static int rings(Geometry g) {
    int n = 0;
    for (int i = 0; i < g.getNumGeometries(); i++) {
      if (g.getGeometryN(i) instanceof Polygon p && !p.isEmpty()) {
        n += 1 + p.getNumInteriorRing();
      }
    }
    return n;
  }

  /** The grid union of a piece; null when it fails, for the slower repair to take over. */
  private static GridUnion.Result union(Geometry inUnits) {
    try {
      return GridUnion.unite(inUnits);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The tile's content, its dead letters and what it took. */
  public RenderedTile render(TilePieces tile) {
    WKBReader reader = new WKBReader(factory);
    WKBWriter writer = new WKBWriter(2);
    String tileRef = tile.work().tile().path();
    List<RenderedFeature> out = new ArrayList<>(tile.pieces().size());
    List<FeatureFailure> deadLetters = new ArrayList<>();
    long cleaned = 0;
    long repaired = 0;
    long collapsed = 0;
    long vertices = 0;
    TileGrid grid =
        spec.gridExtent() > 0
            ? TileGrid.of(spec.tileMatrixSet(), tile.work().tile(), spec.gridExtent())
            : null;
    for (FeaturePiece piece : tile.pieces()) {
      try {
        if (keptValid(piece, grid)) {
          // Finished as it comes: its WKB straight from the grid steps.
          GridPiece.Transcoded t = transcode(piece);
          vertices += t.points();
          out.add(new RenderedFeature(piece.id(), t.wkb(), piece.properties()));
          continue;
        }
        GeometryRepair.Repaired r =
            finish(transform(read(reader, piece)), grid, GridPiece.wound(piece.wkb()));
        if (r == null) {
          collapsed++;
          continue;
        }
        cleaned += r.rung().cleaned() ? 1 : 0;
        repaired += r.rung().repaired() ? 1 : 0;
        vertices += r.geometry().getNumPoints();
        // The finished geometry is this piece's own, made here: moved back in place.
        Geometry finished = grid == null ? r.geometry() : grid.fromGridInPlace(r.geometry());
        out.add(new RenderedFeature(piece.id(), WkbBytes.of(writer, finished), piece.properties()));
      } catch (TileDataException e) {
        deadLetters.add(
            new FeatureFailure(
                tile.work().layer(), piece.id(), tileRef, e.errorClass(), e.getMessage()));
      } catch (RuntimeException e) {
        // A geometry that trips a fault in rounding or repair costs itself, not the run: the
        // piece is dead-lettered with what went wrong, and the tile and every other go on.
        deadLetters.add(
            new FeatureFailure(
                tile.work().layer(),
                piece.id(),
                tileRef,
                "repair",
                "could not be rendered: " + e.getClass().getSimpleName() + ": " + e.getMessage()));
      }
    }
    out.sort(ORDER);
    deadLetters.sort(Comparator.naturalOrder());
    return new RenderedTile(
        tile.key(),
        tile.work(),
        out,
        new RenderStats(tile.pieces().size(), cleaned, repaired, collapsed, vertices),
        deadLetters);
  }

  /**
   * Whether the piece is finished as it comes: rounded at the cutter onto this layer's precision,
   * where the transform is the identity, and found still valid there ({@link GridPiece#keptValid}),
   * so that rounding and checking it again would give it back unchanged.
   */
  private boolean keptValid(FeaturePiece piece, TileGrid grid) {
    return grid == null
        && GridPiece.keptValid(piece.wkb())
        && GridPiece.digits(piece.wkb()) == spec.cutterGridDigits();
  }

  private static GridPiece.Transcoded transcode(FeaturePiece piece) throws TileDataException {
    try {
      return GridPiece.toWkb(piece.wkb());
    } catch (IllegalArgumentException e) {
      throw new TileDataException("geometry", "unreadable piece: " + e.getMessage(), e);
    }
  }

  private Geometry read(WKBReader reader, FeaturePiece piece) throws TileDataException {
    try {
      return GridPiece.isGrid(piece.wkb())
          ? GridPiece.read(piece.wkb(), factory)
          : reader.read(piece.wkb());
    } catch (IllegalArgumentException e) {
      throw new TileDataException("geometry", "unreadable piece: " + e.getMessage(), e);
    } catch (ParseException e) {
      throw new TileDataException("geometry", "unreadable WKB: " + e.getMessage(), e);
    }
  }

  private Geometry transform(Geometry g) throws TileDataException {
    try {
      return toTarget.apply(g);
    } catch (TransformException e) {
      throw new TileDataException(
          "transform", "a coordinate cannot be transformed: " + e.getMessage(), e);
    }
  }
}
