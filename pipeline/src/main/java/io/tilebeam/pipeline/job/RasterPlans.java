package io.tilebeam.pipeline.job;

import io.tilebeam.io.format.RasterFormat;
import io.tilebeam.io.source.RasterSource;
import io.tilebeam.pipeline.job.JobSpec.LayerSpec;
import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.raster.RasterSpec;
import io.tilebeam.transforms.raster.TileSettings;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.List;

/** A raster layer checked against what its tiles can be, and its spec for RenderRasters. */
final class RasterPlans {

  private RasterPlans() {}

  /**
   * The spec of raster layer {@code l}, at {@code path} in the job.
   *
   * @throws JobSpecException naming the field a raster layer cannot have
   */
  static RasterSpec spec(
      LayerSpec l,
      String path,
      TileMatrixSet tms,
      CrsRef target,
      CrsRef sourceCrs,
      RasterSource source,
      RasterFormat format,
      TileSettings settings) {
    if (!target.identity().equals(tms.crs().identity())) {
      throw new JobSpecException(
          path + ".targetCrs",
          l.targetCrs(),
          "raster tiles take their tile matrix set's grid and CRS (" + tms.crs().identity() + ")");
    }
    String refused = format.refuses(settings.bands().length, settings.type());
    if (refused != null) {
      throw new JobSpecException(
          path + ".output.format",
          l.outputFormat(),
          refused + " (see params.dataType, params.bands)");
    }
    int epsg = epsg(target);
    if (format.equals(RasterFormat.GEOTIFF) && epsg == 0) {
      throw new JobSpecException(
          path + ".targetCrs", l.targetCrs(), "geotiff output needs a CRS with an EPSG code");
    }
    return new RasterSpec(
        List.copyOf(source.files()), sourceCrs, tms, settings, epsg, CrsFacts.angular(target));
  }

  /** The EPSG code of a CRS known as {@code EPSG:n}, else 0. */
  private static int epsg(CrsRef crs) {
    String id = crs.identity();
    if (id.startsWith("EPSG:")) {
      try {
        return Integer.parseInt(id.substring(5));
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return 0;
  }
}
