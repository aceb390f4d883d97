package io.tilebeam.io.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.source.GeoJsonSource;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.GridPiece;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.reproject.TileRenderer;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.algorithm.Orientation;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.util.AffineTransformation;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;
import org.locationtech.jts.operation.polygonize.Polygonizer;
import org.locationtech.jts.operation.valid.IsValidOp;

/**
 * Every vector tile of the real country outlines of {@code src/fixtures/countries} (read by the
 * GeoJSON source, cut, rendered on the tiles' grid and encoded with the layer defaults of an MVT
 * job) at zooms 0 to 8, decoded as a client would: each feature's polygons are valid by JTS's
 * {@link IsValidOp}, rings follow the spec's winding, and a country's pieces at a zoom, each
 * clipped to its tile, join up into one shape with the tiles' seams left by no gap or overlap
 * larger than the grid can draw.
 */
class MvtValidityTest {

  private static final Path FIXTURE = Path.of("../src/fixtures/countries/countries-sample.geojson");
  private static final TileMatrixSet WEB = TileMatrixSet.webMercatorQuad();
  private static final GeometryFactory F = new GeometryFactory();
  private static final int MAX_ZOOM = 8;

  /** By zoom, by tile, the decoded features: source id to geometry in tile grid units. */
  private static final Map<Integer, Map<TileId, Map<String, Geometry>>> TILES = new TreeMap<>();

  /** By zoom, by tile, the cut pieces before rendering: source id to geometry in grid units. */
  private static final Map<Integer, Map<TileId, Map<String, Geometry>>> CUT = new TreeMap<>();

  @BeforeAll
  static void encodeEveryTile() throws Exception {
    List<Feature> features = new ArrayList<>();
    new GeoJsonSource(FIXTURE).forEach(features::add, b -> {});
    CrsRef wgs84 = CrsRef.of("EPSG:4326");
    CrsRef mercator = CrsRef.of("EPSG:3857");
    MvtFormat mvt = new MvtFormat();
    // An MVT layer's defaults: a buffer of 8 pixels, simplified and sized to one grid unit.
    double unit = mvt.defaultSimplifyPixels();
    // Wound pieces, as an MVT layer cuts them: the source is not made valid first.
    FeatureCutter cutter =
        new FeatureCutter(new CutSpec(wgs84, WEB, 0, MAX_ZOOM, 8, unit, 3, unit, true));
    TileRenderer renderer = new TileRenderer(new RenderSpec(WEB, mercator, 3, mvt.gridExtent()));
    Map<TileId, List<FeaturePiece>> byTile = new TreeMap<>();
    for (Feature f : features) {
      cutter.cut(
          f, TileFilter.ALL, (t, p) -> byTile.computeIfAbsent(t, k -> new ArrayList<>()).add(p));
    }
    for (Map.Entry<TileId, List<FeaturePiece>> e : byTile.entrySet()) {
      TileWork work =
          new TileWork(
              "validity",
              1,
              "countries",
              "WebMercatorQuad",
              e.getKey(),
              "sha256:aa",
              "EPSG:4326",
              "EPSG:3857",
              "mvt",
              "{}");
      byte[] bytes =
          mvt.encode(
                  renderer.render(new TilePieces(WorkKey.of(work), work, e.getValue())), mercator)
              .bytes();
      TILES
          .computeIfAbsent(e.getKey().z(), z -> new TreeMap<>())
          .put(e.getKey(), MvtDecoder.decode(bytes));
      Map<String, Geometry> cut = new TreeMap<>();
      AffineTransformation toGrid = toGrid(e.getKey());
      for (FeaturePiece p : e.getValue()) {
        // A wound piece is the area where its rings wind at least once; the renderer had to draw
        // that. Simplified but not rounded, a piece of valid rings may fold where rings came
        // close: fixed, it is the area the renderer had to draw.
        Geometry piece = toGrid.transform(GridPiece.read(p.wkb(), F));
        cut.put(p.id(), GridPiece.wound(p.wkb()) ? woundArea(piece) : GeometryFixer.fix(piece));
      }
      CUT.computeIfAbsent(e.getKey().z(), z -> new TreeMap<>()).put(e.getKey(), cut);
    }
  }

  @Test
  void everyFeatureOfEveryTileIsValidOnceDecoded() {
    long checked = 0;
    for (Map<TileId, Map<String, Geometry>> zoom : TILES.values()) {
      for (Map.Entry<TileId, Map<String, Geometry>> tile : zoom.entrySet()) {
        for (Map.Entry<String, Geometry> f : tile.getValue().entrySet()) {
          IsValidOp op = new IsValidOp(f.getValue());
          assertTrue(
              op.isValid(),
              () -> tile.getKey() + " feature " + f.getKey() + ": " + op.getValidationError());
          checked++;
        }
      }
    }
    assertEquals(MAX_ZOOM + 1, TILES.size());
    assertTrue(
        checked >= 100,
        "only "
            + checked
            + " features decoded, tiles by zoom: "
            + TILES.values().stream().map(Map::size).toList());
  }

  @Test
  void aCountrysPiecesAtAZoomJoinUpWithinAGridUnitOfWhatWasCut() {
    long checked = 0;
    for (Map.Entry<Integer, Map<TileId, Map<String, Geometry>>> zoom : TILES.entrySet()) {
      int z = zoom.getKey();
      Map<String, List<Geometry>> written = placed(zoom.getValue());
      Map<String, List<Geometry>> cut = placed(CUT.get(z));
      for (Map.Entry<String, List<Geometry>> country : written.entrySet()) {
        List<Geometry> parts = country.getValue();
        double sum = parts.stream().mapToDouble(Geometry::getArea).sum();
        Geometry joined = OverlayNGRobust.union(F.buildGeometry(parts));
        // Pieces clipped to their tiles meet along the seams and overlap nowhere: the union's area
        // is their sum.
        assertTrue(
            sum - joined.getArea() <= Math.max(1, joined.getArea() * 1e-6),
            "z" + z + " " + country.getKey() + ": pieces overlap by " + (sum - joined.getArea()));
        // They join up into what was cut: rounding onto each tile's grid moves an edge by less
        // than a grid unit, so the written shape differs from the cut one by no more than its
        // outline times a unit. A piece missing at a seam, or one that stops where its neighbour
        // goes on, would leave a gap as wide as the piece.
        Geometry truth =
            OverlayNGRobust.union(
                F.buildGeometry(cut.getOrDefault(country.getKey(), new ArrayList<>())));
        double apart = OverlayNGRobust.overlay(joined, truth, 4).getArea();
        assertTrue(
            apart <= truth.getLength(),
            "z"
                + z
                + " "
                + country.getKey()
                + ": "
                + apart
                + " square units apart from the cut,"
                + " outline "
                + truth.getLength());
        checked++;
      }
    }
    assertTrue(checked > 50, "only " + checked + " countries checked at their zooms");
  }

  /**
   * The area where a piece's rings wind at least once, by their roles (a shell winds +1 around its
   * inside, a hole −1, each the way its signed area turns), found with JTS alone and not with the
   * renderer's union: the rings' lines noded, each face of the arrangement kept where the winding
   * number at a point inside it is at least 1, the kept faces united.
   */
  private static Geometry woundArea(Geometry piece) {
    List<Coordinate[]> rings = new ArrayList<>();
    List<Integer> signs = new ArrayList<>();
    List<Geometry> lines = new ArrayList<>();
    for (int i = 0; i < piece.getNumGeometries(); i++) {
      Polygon p = (Polygon) piece.getGeometryN(i);
      for (int r = 0; r <= p.getNumInteriorRing(); r++) {
        LinearRing ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
        Coordinate[] c = ring.getCoordinates();
        boolean anticlockwise = Orientation.isCCWArea(c);
        rings.add(c);
        signs.add((r == 0) == anticlockwise ? 1 : -1);
        lines.add(F.createLineString(c));
      }
    }
    Polygonizer faces = new Polygonizer();
    faces.add(OverlayNGRobust.union(F.buildGeometry(lines)));
    List<Geometry> kept = new ArrayList<>();
    for (Object o : faces.getPolygons()) {
      Polygon face = (Polygon) o;
      Coordinate inside = face.getInteriorPoint().getCoordinate();
      int winding = 0;
      for (int k = 0; k < rings.size(); k++) {
        winding += signs.get(k) * windingNumber(rings.get(k), inside);
      }
      if (winding >= 1) {
        kept.add(face);
      }
    }
    return OverlayNGRobust.union(F.buildGeometry(kept));
  }

  /** How many times the closed ring winds anticlockwise around {@code p} (Sunday's crossings). */
  private static int windingNumber(Coordinate[] ring, Coordinate p) {
    int w = 0;
    for (int i = 0; i + 1 < ring.length; i++) {
      Coordinate a = ring[i];
      Coordinate b = ring[i + 1];
      double side = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y);
      if (a.y <= p.y) {
        if (b.y > p.y && side > 0) {
          w++;
        }
      } else if (b.y <= p.y && side < 0) {
        w--;
      }
    }
    return w;
  }

  /** From the matrix set's CRS to a tile's grid: x right, y down from its top-left corner. */
  private static AffineTransformation toGrid(TileId t) {
    Bounds b = WEB.matrix(t.z()).tileBounds(t.x(), t.y());
    return AffineTransformation.translationInstance(-b.minX(), -b.maxY())
        .scale(4096 / (b.maxX() - b.minX()), -4096 / (b.maxY() - b.minY()));
  }

  /** Each feature's pieces at a zoom, each clipped to its own tile, placed on the zoom's grid. */
  private static Map<String, List<Geometry>> placed(Map<TileId, Map<String, Geometry>> tiles) {
    Map<String, List<Geometry>> pieces = new TreeMap<>();
    for (Map.Entry<TileId, Map<String, Geometry>> tile : tiles.entrySet()) {
      TileId t = tile.getKey();
      AffineTransformation place =
          AffineTransformation.translationInstance(t.x() * 4096.0, t.y() * 4096.0);
      Geometry own = place.transform(box(0, 0, 4096, 4096));
      tile.getValue()
          .forEach(
              (id, g) -> {
                List<Geometry> list = pieces.computeIfAbsent(id, k -> new ArrayList<>());
                // Only the area: a piece of the buffer that touches the tile meets it in a line.
                Geometry clipped = OverlayNGRobust.overlay(place.transform(g), own, 1);
                for (int i = 0; i < clipped.getNumGeometries(); i++) {
                  if (clipped.getGeometryN(i) instanceof Polygon p && !p.isEmpty()) {
                    list.add(p);
                  }
                }
              });
    }
    return pieces;
  }

  private static Polygon box(double x0, double y0, double x1, double y1) {
    return F.createPolygon(
        new Coordinate[] {
          new Coordinate(x0, y0),
          new Coordinate(x1, y0),
          new Coordinate(x1, y1),
          new Coordinate(x0, y1),
          new Coordinate(x0, y0)
        });
  }
}
