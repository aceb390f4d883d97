package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.tiling.Bounds;
import io.tilebeam.transforms.tiling.TileMatrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.PrecisionModel;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.operation.valid.IsValidOp;
import org.locationtech.jts.precision.GeometryPrecisionReducer;
import org.opengis.referencing.operation.TransformException;

/**
 * Renders one tile: each feature is transformed into the matrix set's CRS, repaired when invalid,
 * clipped to the buffered tile (a true rectangle there), transformed to the target CRS and rounded
 * to the layer's precision. Features are returned sorted by id, so equal work gives equal content.
 * Clipping happens in the matrix set's CRS rather than the target's because that is where a tile is
 * a rectangle; when the target is the matrix set's CRS (the usual case) the two are the same.
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
  private final Envelope domain;

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
    this.domain = domainOf(spec.sourceCrs());
  }

  /** The source CRS's domain of validity in its own (east/north) coordinates, when SIS knows it. */
  private static Envelope domainOf(CrsRef crs) {
    org.opengis.geometry.Envelope e =
        org.apache.sis.referencing.CRS.getDomainOfValidity(
            io.tilebeam.transforms.crs.CrsResolver.resolve(crs.definition()));
    if (e == null || e.getDimension() < 2) {
      return null;
    }
    return new Envelope(e.getMinimum(0), e.getMaximum(0), e.getMinimum(1), e.getMaximum(1));
  }

  /**
   * The tile's content. Bad data in a feature costs that feature only: a geometry that cannot be
   * read, transformed or repaired goes to the tile's dead letters with its id and reason; an empty
   * one is counted and skipped.
   */
  public RenderedTile render(TileFeatures tile) {
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
    String tileRef = tile.work().tile().path();
    List<RenderedFeature> out = new ArrayList<>();
    List<FeatureFailure> deadLetters = new ArrayList<>();
    Counts counts = new Counts();
    for (Feature f : tile.features()) {
      try {
        RenderedFeature r = renderOne(f, reader, writer, clip, counts);
        if (r != null) {
          out.add(r);
        }
      } catch (TileDataException e) {
        deadLetters.add(
            new FeatureFailure(
                tile.work().layer(), f.id(), tileRef, e.errorClass(), e.getMessage()));
      }
    }
    out.sort(ORDER);
    deadLetters.sort(Comparator.naturalOrder());
    return new RenderedTile(
        tile.key(),
        tile.work(),
        out,
        tile.features().size(),
        counts.repaired,
        counts.empty,
        counts.outsideDomain,
        deadLetters);
  }

  /** What a tile's features needed on the way. */
  private static final class Counts {
    long repaired;
    long empty;
    long outsideDomain;
  }

  private RenderedFeature renderOne(
      Feature f, WKBReader reader, WKBWriter writer, Geometry clip, Counts counts)
      throws TileDataException {
    Geometry source = read(reader, f);
    if (source.isEmpty()) {
      counts.empty++;
      return null;
    }
    counts.outsideDomain += outsideDomain(source);
    Geometry g = transform(toTms, source);
    if (!g.isValid()) {
      Geometry fixed = GeometryFixer.fix(g);
      if (fixed.isEmpty()) {
        throw new TileDataException(
            "geometry",
            "invalid "
                + g.getGeometryType()
                + " beyond repair: "
                + new IsValidOp(g).getValidationError(),
            null);
      }
      g = fixed;
      counts.repaired++;
    }
    Geometry clipped =
        g.getEnvelopeInternal().intersects(clip.getEnvelopeInternal())
            ? g.intersection(clip)
            : factory.createGeometryCollection();
    if (clipped.isEmpty()) {
      return null;
    }
    Geometry rounded = GeometryPrecisionReducer.reduce(transform(toTarget, clipped), precision);
    return rounded.isEmpty()
        ? null
        : new RenderedFeature(f.id(), writer.write(rounded), f.properties());
  }

  /**
   * How many of the geometry's coordinates lie outside the source CRS's domain of validity: they
   * are still transformed (the formulas may hold there), but the report says how many there were.
   */
  private long outsideDomain(Geometry g) {
    if (domain == null) {
      return 0;
    }
    long n = 0;
    for (Coordinate c : g.getCoordinates()) {
      if (!domain.contains(c)) {
        n++;
      }
    }
    return n;
  }

  private static Geometry read(WKBReader reader, Feature f) throws TileDataException {
    try {
      return reader.read(f.wkb());
    } catch (ParseException e) {
      throw new TileDataException("geometry", "unreadable WKB: " + e.getMessage(), e);
    }
  }

  private static Geometry transform(CoordinateTransformer t, Geometry g) throws TileDataException {
    try {
      return t.apply(g);
    } catch (TransformException e) {
      throw new TileDataException(
          "transform", "a coordinate cannot be transformed: " + e.getMessage(), e);
    }
  }
}
