package io.tilebeam.io.source;

import io.tilebeam.io.raster.SampleType;
import io.tilebeam.io.raster.TileResampler;
import io.tilebeam.io.retry.RetryPolicy;
import java.awt.image.DataBuffer;
import java.io.IOException;
import java.util.Set;
import org.apache.sis.referencing.IdentifiedObjects;
import org.apache.sis.storage.DataStoreException;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.util.FactoryException;

/**
 * GeoTIFF, Cloud Optimized GeoTIFF included: a raster layer's source, read by {@link TileResampler}
 * tile by tile (the windows each tile needs). At planning the file is opened and its CRS, bands,
 * sample type and no-data value read; its content checksum is its identity.
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
    if (!(file instanceof SourceFile.Local local)) {
      throw new SourceFormatException(
          "geotiff sources are read from local files by this version (gs:// is issue 17's next"
              + " step)",
          null);
    }
    try (TileResampler image = TileResampler.open(local.path())) {
      int bands = image.bands().size();
      SampleType type = sampleType(image.sampleDataType());
      String crs =
          declaredCrs(
              image.grid().isDefined(org.apache.sis.coverage.grid.GridGeometry.CRS)
                  ? image.grid().getCoordinateReferenceSystem()
                  : null);
      return new Resolved(
          file, identity(file, options), crs, bands, type, image.declaredNodata().orElse(null));
    } catch (DataStoreException | RuntimeException e) {
      throw new SourceFormatException("not a GeoTIFF that can be read: " + e.getMessage(), e);
    }
  }

  private static SampleType sampleType(int dataType) {
    return switch (dataType) {
      case DataBuffer.TYPE_BYTE -> SampleType.UINT8;
      case DataBuffer.TYPE_SHORT -> SampleType.INT16;
      case DataBuffer.TYPE_USHORT -> SampleType.UINT16;
      case DataBuffer.TYPE_FLOAT -> SampleType.FLOAT32;
      default ->
          throw new SourceFormatException(
              "samples of data type "
                  + dataType
                  + " are not read (8- and 16-bit integers and 32-bit floats are)",
              null);
    };
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
