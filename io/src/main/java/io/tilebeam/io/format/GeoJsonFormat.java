package io.tilebeam.io.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;

/**
 * GeoJSON FeatureCollection, coordinates in the target CRS (east/north). A CRS other than OGC:CRS84
 * is declared with the GeoJSON 2008 {@code crs} member as an OGC URN, which is how GDAL reads it;
 * RFC 7946 itself only knows CRS84. Written by hand so that the bytes are fixed: member order,
 * number form and features in the tile's order.
 */
public final class GeoJsonFormat implements VectorFormat {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  public String name() {
    return "geojson";
  }

  @Override
  public String mediaType() {
    return "application/geo+json";
  }

  @Override
  public String extension() {
    return "geojson";
  }

  @Override
  public Encoded encode(RenderedTile tile, CrsRef crs) throws IOException {
    StringBuilder out = new StringBuilder(256 + tile.features().size() * 256);
    out.append("{\"type\":\"FeatureCollection\"");
    String urn = crsUrn(crs.identity());
    if (urn != null) {
      out.append(",\"crs\":{\"type\":\"name\",\"properties\":{\"name\":")
          .append(MAPPER.writeValueAsString(urn))
          .append("}}");
    }
    out.append(",\"features\":[");
    WKBReader reader = new WKBReader();
    for (int i = 0; i < tile.features().size(); i++) {
      RenderedFeature f = tile.features().get(i);
      if (i > 0) {
        out.append(',');
      }
      out.append("{\"type\":\"Feature\",\"id\":")
          .append(MAPPER.writeValueAsString(f.id()))
          .append(",\"geometry\":");
      try {
        appendGeometry(out, reader.read(f.wkb()));
      } catch (ParseException e) {
        throw new IOException("feature " + f.id() + " has unreadable WKB", e);
      }
      out.append(",\"properties\":").append(f.properties()).append('}');
    }
    out.append("]}\n");
    return new Encoded(out.toString().getBytes(StandardCharsets.UTF_8), tile.features().size());
  }

  @Override
  public long countFeatures(byte[] bytes) throws IOException {
    JsonNode root = MAPPER.readTree(bytes);
    JsonNode features = root == null ? null : root.get("features");
    if (features == null
        || !features.isArray()
        || !"FeatureCollection".equals(root.path("type").asText())) {
      throw new IOException("not a GeoJSON FeatureCollection");
    }
    return features.size();
  }

  /** The URN GDAL reads for an identity, or null for CRS84, GeoJSON's default. */
  static String crsUrn(String identity) {
    if (identity.equals(CrsResolver.CRS84)) {
      return null;
    }
    if (identity.startsWith("EPSG:")) {
      return "urn:ogc:def:crs:EPSG::" + identity.substring(5);
    }
    return null;
  }

  private static void appendGeometry(StringBuilder out, Geometry g) {
    String type = g.getGeometryType();
    out.append("{\"type\":\"").append(type).append("\",");
    if (g instanceof org.locationtech.jts.geom.GeometryCollection
        && !(g instanceof org.locationtech.jts.geom.MultiPoint)
        && !(g instanceof org.locationtech.jts.geom.MultiLineString)
        && !(g instanceof org.locationtech.jts.geom.MultiPolygon)) {
      out.append("\"geometries\":[");
      for (int i = 0; i < g.getNumGeometries(); i++) {
        if (i > 0) {
          out.append(',');
        }
        appendGeometry(out, g.getGeometryN(i));
      }
      out.append("]}");
      return;
    }
    out.append("\"coordinates\":");
    appendCoordinates(out, g);
    out.append('}');
  }

  private static void appendCoordinates(StringBuilder out, Geometry g) {
    if (g instanceof Point p) {
      appendPosition(out, p.getCoordinate());
    } else if (g instanceof LineString l) {
      appendRing(out, l.getCoordinates());
    } else if (g instanceof Polygon p) {
      out.append('[');
      appendRing(out, p.getExteriorRing().getCoordinates());
      for (int i = 0; i < p.getNumInteriorRing(); i++) {
        out.append(',');
        appendRing(out, p.getInteriorRingN(i).getCoordinates());
      }
      out.append(']');
    } else {
      out.append('[');
      for (int i = 0; i < g.getNumGeometries(); i++) {
        if (i > 0) {
          out.append(',');
        }
        appendCoordinates(out, g.getGeometryN(i));
      }
      out.append(']');
    }
  }

  private static void appendRing(StringBuilder out, Coordinate[] coords) {
    out.append('[');
    for (int i = 0; i < coords.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      appendPosition(out, coords[i]);
    }
    out.append(']');
  }

  private static void appendPosition(StringBuilder out, Coordinate c) {
    out.append('[')
        .append(CoordinateFormat.format(c.getX()))
        .append(',')
        .append(CoordinateFormat.format(c.getY()))
        .append(']');
  }
}
