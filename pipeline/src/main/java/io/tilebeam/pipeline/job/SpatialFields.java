package io.tilebeam.pipeline.job;

import io.tilebeam.io.source.SourceFormat;
import io.tilebeam.pipeline.job.JobSpec.ExtentSpec;
import io.tilebeam.pipeline.job.JobSpec.LayerSpec;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.crs.UnknownCrsException;
import io.tilebeam.transforms.tiling.Extent;
import io.tilebeam.transforms.tiling.ExtentNormalizer;
import io.tilebeam.transforms.tiling.InvalidExtentException;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import io.tilebeam.transforms.tiling.TileMatrixSetJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A layer's spatial fields resolved at planning: its tile matrix set, its CRSs and its extents,
 * each problem a {@link JobSpecException} naming the field.
 */
final class SpatialFields {

  private SpatialFields() {}

  /** A built-in set by name, or a set read from an OGC TMS JSON file at that path. */
  static TileMatrixSet tileMatrixSet(String value, String field) {
    Path file = Path.of(value);
    if (!value.toLowerCase(java.util.Locale.ROOT).endsWith(".json") && !Files.isRegularFile(file)) {
      try {
        return TileMatrixSet.builtIn(value);
      } catch (IllegalArgumentException e) {
        throw new JobSpecException(
            field, value, e.getMessage() + ", or the path of an OGC TMS JSON file");
      }
    }
    String json;
    try {
      json = Files.readString(file);
    } catch (IOException e) {
      throw new JobSpecException(field, value, "cannot read the tile matrix set file: " + e, e);
    }
    try {
      return TileMatrixSetJson.parse(json);
    } catch (IllegalArgumentException e) {
      throw new JobSpecException(field, value, "not a usable OGC TMS JSON: " + e.getMessage(), e);
    }
  }

  /**
   * The job's CRS, else the one the source declares (a GeoJSON {@code crs} member, a FlatGeobuf
   * header, a PostGIS SRID), else RFC 7946's CRS84 for GeoJSON; the two must agree. GeoJSONSeq
   * records declare none: RFC 8142 says CRS84. A FlatGeobuf file or PostGIS table that declares
   * none needs the job's.
   */
  static CrsRef sourceCrs(LayerSpec l, SourceFormat format, String declared, String path) {
    String from = path + "." + format.declaredCrsField();
    CrsRef fromSource = null;
    if (declared != null) {
      try {
        fromSource = CrsRef.of(declared);
      } catch (UnknownCrsException e) {
        // A declaration SIS cannot read is only an error when there is nothing else to go by.
        if (l.sourceCrs() == null) {
          throw new JobSpecException(from, declared, "unknown CRS: give source.crs", e);
        }
      }
    }
    if (l.sourceCrs() == null) {
      if (fromSource != null) {
        return fromSource;
      }
      if (format.impliedCrs() != null) {
        return CrsRef.of(format.impliedCrs());
      }
      throw new JobSpecException(
          path + ".source.crs", null, "the source declares no CRS: the job must give one");
    }
    CrsRef fromJob = crs(l.sourceCrs(), path + ".source.crs");
    if (fromSource != null && !sameAxesIgnored(fromSource, fromJob)) {
      throw new JobSpecException(
          path + ".source.crs",
          l.sourceCrs(),
          "contradicts the CRS the source declares (" + fromSource.identity() + ")");
    }
    return fromJob;
  }

  /** EPSG:4326 and CRS84 differ only in axis order, which tilebeam always forces to east/north. */
  private static boolean sameAxesIgnored(CrsRef a, CrsRef b) {
    return a.identity().equals(b.identity()) || (isWgs84(a.identity()) && isWgs84(b.identity()));
  }

  private static boolean isWgs84(String identity) {
    return identity.equals("EPSG:4326") || identity.equals(CrsResolver.CRS84);
  }

  /**
   * The layer's extents, each checked and normalised into the matrix set's CRS: the boxes are added
   * to {@code boxes}, for the layer's cover.
   */
  static List<Extent> extents(
      LayerSpec l, TileMatrixSet tms, String path, List<String> warnings, List<Bounds> boxes) {
    List<Extent> out = new ArrayList<>();
    for (int j = 0; j < l.extents().size(); j++) {
      ExtentSpec e = l.extents().get(j);
      String at = path + ".extents[" + j + "]";
      CrsRef crs = crs(e.crs(), at + ".crs");
      Extent extent = new Extent(e.bbox()[0], e.bbox()[1], e.bbox()[2], e.bbox()[3], crs);
      try {
        boxes.addAll(ExtentNormalizer.normalize(extent, tms));
      } catch (InvalidExtentException e2) {
        throw new JobSpecException(
            at + ".bbox", java.util.Arrays.toString(e.bbox()), e2.getMessage(), e2);
      }
      double crossing = ExtentNormalizer.crossingWidth(extent);
      if (crossing > 180) {
        // The documented rule holds (west > east crosses the antimeridian), but a box wider than
        // half the world that way round is more often a swapped pair.
        warnings.add(
            String.format(
                java.util.Locale.ROOT,
                "%s.bbox %s: west %s > east %s is read as crossing the antimeridian, a box %s°"
                    + " wide; swap west and east for the %s° box between them",
                at,
                java.util.Arrays.toString(e.bbox()),
                e.bbox()[0],
                e.bbox()[2],
                crossing,
                360 - crossing));
      }
      out.add(extent);
    }
    return out;
  }

  static CrsRef crs(String spelling, String field) {
    CrsRef crs;
    try {
      crs = CrsRef.of(spelling);
    } catch (UnknownCrsException e) {
      throw new JobSpecException(field, spelling, "unknown CRS", e);
    }
    // Known before the first claim, not found by every worker's transform.
    String notHorizontal = CrsFacts.notHorizontal(crs);
    if (notHorizontal != null) {
      throw new JobSpecException(
          field,
          spelling,
          "is "
              + notHorizontal
              + ": tiles need a CRS of two horizontal coordinates, geographic or projected");
    }
    return crs;
  }
}
