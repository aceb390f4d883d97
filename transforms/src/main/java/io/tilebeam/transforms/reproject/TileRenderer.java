package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.tiling.Bounds;
import io.tilebeam.transforms.tiling.TileMatrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.PrecisionModel;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.precision.GeometryPrecisionReducer;
import org.opengis.referencing.operation.TransformException;

/**
 * Renders one tile: each feature is transformed into the matrix set's CRS, repaired when invalid,
 * clipped to the buffered tile (a true rectangle there), transformed to the target CRS and rounded
 * to the layer's precision. Features are returned sorted by id, so equal work gives equal content.
 */
public final class TileRenderer {

  private static final Comparator<RenderedFeature> ORDER =
      Comparator.comparing(RenderedFeature::id)
          .thenComparing(RenderedFeature::wkb, Arrays::compare)
          .thenComparing(RenderedFeature::properties);

  private final RenderSpec spec;
  private final CoordinateTransformer toTms;
  private final CoordinateTransformer toTarget;
  private final GeometryFactory factory = new GeometryFactory();
  private final PrecisionModel precision;

  /** A renderer for one layer. */
  public TileRenderer(RenderSpec spec) {
    this.spec = spec;
    CrsRef tmsCrs = spec.tileMatrixSet().crs();
    this.toTms =
        new CoordinateTransformer(
            CrsTransforms.operation(spec.sourceCrs(), tmsCrs).getMathTransform());
    this.toTarget =
        new CoordinateTransformer(
            CrsTransforms.operation(tmsCrs, spec.targetCrs()).getMathTransform());
    this.precision = new PrecisionModel(Math.pow(10, spec.precisionDigits()));
  }

  /**
   * The tile's content.
   *
   * @throws TileDataException when a feature's geometry cannot be read or transformed
   */
  public RenderedTile render(TileFeatures tile) throws TileDataException {
    TileMatrix m = spec.tileMatrixSet().matrix(tile.work().tile().z());
    Bounds bounds =
        m.tileBounds(tile.work().tile().x(), tile.work().tile().y())
            .expand(
                spec.bufferPixels() * m.tileSpanX() / m.tileWidthPixels(),
                spec.bufferPixels() * m.tileSpanY() / m.tileHeightPixels());
    Geometry clip =
        factory.toGeometry(
            new Envelope(bounds.minX(), bounds.maxX(), bounds.minY(), bounds.maxY()));
    WKBReader reader = new WKBReader(factory);
    WKBWriter writer = new WKBWriter(2);
    List<RenderedFeature> out = new ArrayList<>();
    long repaired = 0;
    for (Feature f : tile.features()) {
      Geometry g = readAndProject(reader, f);
      if (!g.isValid()) {
        g = GeometryFixer.fix(g);
        repaired++;
      }
      Geometry clipped =
          g.getEnvelopeInternal().intersects(clip.getEnvelopeInternal())
              ? g.intersection(clip)
              : factory.createGeometryCollection();
      if (clipped.isEmpty()) {
        continue;
      }
      Geometry rounded = GeometryPrecisionReducer.reduce(toTarget(f, clipped), precision);
      if (!rounded.isEmpty()) {
        out.add(new RenderedFeature(f.id(), writer.write(rounded), f.properties()));
      }
    }
    out.sort(ORDER);
    return new RenderedTile(tile.key(), tile.work(), out, tile.features().size(), repaired);
  }

  private Geometry readAndProject(WKBReader reader, Feature f) throws TileDataException {
    try {
      return toTms.apply(reader.read(f.wkb()));
    } catch (ParseException e) {
      throw new TileDataException("geometry", "feature " + f.id() + ": unreadable WKB", e);
    } catch (TransformException e) {
      throw new TileDataException(
          "transform", "feature " + f.id() + " cannot be transformed: " + e.getMessage(), e);
    }
  }

  private Geometry toTarget(Feature f, Geometry g) throws TileDataException {
    try {
      return toTarget.apply(g);
    } catch (TransformException e) {
      throw new TileDataException(
          "transform", "feature " + f.id() + " cannot be transformed: " + e.getMessage(), e);
    }
  }
}
