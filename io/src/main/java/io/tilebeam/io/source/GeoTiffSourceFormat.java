package io.tilebeam.io.source;

import io.tilebeam.io.raster.SampleType;
import io.tilebeam.io.raster.TileResampler;
import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.util.Set;
import org.apache.sis.referencing.IdentifiedObjects;
import org.apache.sis.storage.DataStoreException;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.util.FactoryException;

/**
 * GeoTIFF, Cloud Optimized GeoTIFF included, local or {@code gs://}: a raster layer's source, read
 * by {@link TileResampler} window by window (the blocks each group of tiles needs; a remote object
 * in ranges, pinned to the generation planned). At planning its header is read for its CRS, bands,
 * sample type and no-data value; its content checksum is its identity.
 */
final class GeoTiffSourceFormat extends FileSourceFormat {

  GeoTiffSourceFormat() {
    super("geotiff", Set.of(), Set.of(), null);
  }

  @Override
  public boolean raster() {
    return true;
  }

  @Override
  LayerSource resolve(SourceFile file, SourceOptions options) throws IOException {
    try (TileResampler image = TileResampler.open(file)) {
      int bands = image.bands().size();
      SampleType type = image.sampleType();
      if (type == null) {
        throw new SourceFormatException(
            image.sampleDescription()
                + " are not read (8- and 16-bit integers and 32-bit floats are)",
            null);
      }
      String crs =
          declaredCrs(
              image.grid().isDefined(org.apache.sis.coverage.grid.GridGeometry.CRS)
                  ? image.grid().getCoordinateReferenceSystem()
                  : null);
      return new Resolved(
          file, identity(file, options), crs, bands, type, image.declaredNodata().orElse(null));
    } catch (SourceFormatException e) {
      throw e;
    } catch (DataStoreException | RuntimeException e) {
      throw new SourceFormatException("not a GeoTIFF that can be read: " + e.getMessage(), e);
    }
  }

  /** The CRS as its EPSG code where it has one, else as WKT; null when the file declares none. */
  private static String declaredCrs(CoordinateReferenceSystem crs) {
    if (crs == null) {
      return null;
    }
    try {
      Integer code = IdentifiedObjects.lookupEPSG(crs);
      if (code != null) {
        return "EPSG:" + code;
      }
    } catch (FactoryException e) {
      // No EPSG look-up: the WKT says it all the same.
    }
    return crs.toString();
  }

  /**
   * A GeoTIFF found at planning.
   *
   * @param bands how many bands it has
   * @param type its sample type
   * @param nodata the no-data value it declares, or null
   */
  record Resolved(
      SourceFile file,
      String identity,
      String declaredCrs,
      int bands,
      SampleType type,
      Double nodata)
      implements RasterSource {

    @Override
    public boolean indexed() {
      return false;
    }

    @Override
    public FeatureReader open(RetryPolicy retry) {
      throw new UnsupportedOperationException(
          "a raster source is read tile by tile by RenderRasters, not as features");
    }
  }
}
