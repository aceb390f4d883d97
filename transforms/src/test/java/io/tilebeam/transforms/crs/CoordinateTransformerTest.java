package io.tilebeam.transforms.crs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.sis.referencing.operation.transform.MathTransforms;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKTReader;
import org.opengis.referencing.operation.TransformException;

/** Applying a transform to a geometry; the identity checks its coordinates and keeps it. */
class CoordinateTransformerTest {

  private final WKTReader wkt = new WKTReader(new GeometryFactory());
  private final CoordinateTransformer identity =
      new CoordinateTransformer(MathTransforms.identity(2));

  @Test
  void theIdentityGivesTheGeometryItselfBack() throws Exception {
    Geometry g =
        wkt.read(
            "GEOMETRYCOLLECTION (MULTIPOLYGON (((0 0, 10 0, 10 10, 0 0), (1 1, 2 1, 2 2, 1 1))),"
                + " LINESTRING (0 0, 1 1), POINT (3 4), POLYGON EMPTY)");
    assertSame(g, identity.apply(g));
  }

  /**
   * A coordinate that is not finite, anywhere in a geometry (a hole, a nested part), is refused.
   */
  @Test
  void theIdentityRefusesACoordinateThatIsNotFinite() throws Exception {
    for (String where :
        new String[] {
          "MULTIPOLYGON (((0 0, 10 0, 10 10, 0 0), (1 1, 2 1, 2 %s, 1 1)))",
          "GEOMETRYCOLLECTION (POINT (1 1), LINESTRING (0 0, %s 1))",
          "POINT (%s 1)"
        }) {
      Geometry g = wkt.read(String.format(where, "7"));
      g.getCoordinates()[g.getNumPoints() > 2 ? g.getNumPoints() - 2 : 0].setY(Double.NaN);
      g.geometryChanged();
      TransformException e = assertThrows(TransformException.class, () -> identity.apply(g));
      assertEquals(true, e.getMessage().contains("NaN"), e.getMessage());
    }
  }
}
