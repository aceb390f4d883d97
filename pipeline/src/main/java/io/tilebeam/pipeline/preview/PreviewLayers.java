package io.tilebeam.pipeline.preview;

import io.tilebeam.io.format.MvtFormat;
import io.tilebeam.io.format.RasterFormat;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.sink.OutputLocation;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.LayerPlan;
import io.tilebeam.transforms.tiling.Extent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which of a job's layers a map preview can show, by output directory: layers in Web Mercator
 * (WebMercatorQuad, EPSG:3857) published as MVT, PNG, Terrarium or Terrain-RGB tiles, or as a
 * PMTiles archive of them, into a local directory. GeoJSON, FlatGeobuf and GeoTIFF tiles, other
 * tile matrix sets, buckets and tables have no preview.
 */
public final class PreviewLayers {

  private static final double MAX_LATITUDE = 85.0511287798;

  private PreviewLayers() {}

  /** The previewable layers of {@code plan}, grouped by their output directory, in job order. */
  public static Map<Path, List<PreviewLayer>> of(JobPlan plan) {
    Map<Path, List<PreviewLayer>> out = new LinkedHashMap<>();
    for (LayerPlan l : plan.layers()) {
      OutputLocation location =
          l.archive() != null ? l.archive().location() : l.publish().location();
      if (!(location instanceof OutputLocation.Local local)
          || !"WebMercatorQuad".equals(l.tiling().tileMatrixSet().id())
          || !"EPSG:3857".equals(l.publish().targetCrs().identity())) {
        continue;
      }
      TileFormat format = l.archive() != null ? l.archive().tiles() : l.publish().format();
      String kind = kind(format);
      if (kind == null) {
        continue;
      }
      out.computeIfAbsent(local.root(), k -> new ArrayList<>())
          .add(
              new PreviewLayer(
                  l.name(),
                  kind,
                  l.archive() == null ? null : l.archive().archiveName(),
                  format.extension(),
                  l.tiling().minZoom(),
                  l.tiling().maxZoom(),
                  bounds(l.tiling().extents())));
    }
    return out;
  }

  /** The preview's kind of a tile format, or null when it shows none. */
  static String kind(TileFormat format) {
    if (format instanceof MvtFormat) {
      return "vector";
    }
    if (format == RasterFormat.PNG) {
      return "raster";
    }
    if (format == RasterFormat.TERRARIUM) {
      return "terrarium";
    }
    if (format == RasterFormat.TERRAIN_RGB) {
      return "terrain-rgb";
    }
    return null;
  }

  /**
   * The union of the extents given in degrees, clamped to Web Mercator's latitudes; the world when
   * an extent is in another CRS or crosses the antimeridian (a map fits its view to it only).
   */
  static List<Double> bounds(List<Extent> extents) {
    double w = 180;
    double s = 90;
    double e = -180;
    double n = -90;
    for (Extent x : extents) {
      String crs = x.crs().identity();
      boolean degrees = crs.equals("EPSG:4326") || crs.equals("OGC:CRS84");
      if (!degrees || x.west() > x.east()) {
        return List.of(-180.0, -MAX_LATITUDE, 180.0, MAX_LATITUDE);
      }
      w = Math.min(w, x.west());
      s = Math.min(s, x.south());
      e = Math.max(e, x.east());
      n = Math.max(n, x.north());
    }
    if (w > e) {
      return List.of(-180.0, -MAX_LATITUDE, 180.0, MAX_LATITUDE);
    }
    return List.of(
        Math.max(-180, w), Math.max(-MAX_LATITUDE, s), Math.min(180, e), Math.min(MAX_LATITUDE, n));
  }
}
