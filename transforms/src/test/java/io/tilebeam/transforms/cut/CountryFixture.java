package io.tilebeam.transforms.cut;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKBWriter;

/**
 * The real country outlines of {@code src/fixtures/countries} (OpenStreetMap data, ODbL 1.0; see
 * its README), read as features in WGS 84 longitude/latitude.
 */
public final class CountryFixture {

  /** The fixture file, from a module's directory. */
  public static final Path FILE = Path.of("../src/fixtures/countries/countries-sample.geojson");

  private static final GeometryFactory F = new GeometryFactory();

  private CountryFixture() {}

  /** The countries, in file order (by A3 code). */
  public static List<Feature> features() throws IOException {
    return features(FILE);
  }

  /** Every polygon of every country, in file order, each multi-polygon's parts in its order. */
  public static List<Polygon> polygons() throws IOException {
    List<Polygon> out = new ArrayList<>();
    for (JsonNode f : new ObjectMapper().readTree(FILE.toFile()).get("features")) {
      Geometry g = geometry(f.get("geometry"));
      for (int i = 0; i < g.getNumGeometries(); i++) {
        out.add((Polygon) g.getGeometryN(i));
      }
    }
    return out;
  }

  /**
   * The polygon features of a GeoJSON FeatureCollection; a feature without an id is named after its
   * position.
   */
  public static List<Feature> features(Path file) throws IOException {
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    List<Feature> out = new ArrayList<>();
    WKBWriter wkb = new WKBWriter(2);
    for (JsonNode f : root.get("features")) {
      out.add(
          new Feature(
              f.has("id") ? f.get("id").asText() : "#" + out.size(),
              wkb.write(geometry(f.get("geometry"))),
              f.get("properties").toString()));
    }
    return out;
  }

  private static Geometry geometry(JsonNode g) {
    JsonNode c = g.get("coordinates");
    if (g.get("type").asText().equals("Polygon")) {
      return polygon(c);
    }
    List<Polygon> parts = new ArrayList<>();
    c.forEach(p -> parts.add(polygon(p)));
    return F.createMultiPolygon(parts.toArray(Polygon[]::new));
  }

  private static Polygon polygon(JsonNode rings) {
    LinearRing shell = ring(rings.get(0));
    LinearRing[] holes = new LinearRing[rings.size() - 1];
    for (int i = 1; i < rings.size(); i++) {
      holes[i - 1] = ring(rings.get(i));
    }
    return F.createPolygon(shell, holes);
  }

  private static LinearRing ring(JsonNode points) {
    Coordinate[] c = new Coordinate[points.size()];
    for (int i = 0; i < c.length; i++) {
      c[i] = new Coordinate(points.get(i).get(0).asDouble(), points.get(i).get(1).asDouble());
    }
    return F.createLinearRing(c);
  }
}
