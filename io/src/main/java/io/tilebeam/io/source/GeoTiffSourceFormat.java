package io.tilebeam.io.source;

import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.io.storage.Locations;
import io.tilebeam.io.storage.Stores;
import io.tilebeam.transforms.digest.Sha256;
import io.tilebeam.transforms.raster.TileResampler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.sis.referencing.IdentifiedObjects;
import org.apache.sis.storage.DataStoreException;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.util.FactoryException;

/**
 * GeoTIFF, Cloud Optimized GeoTIFF included, local, {@code gs://} or {@code s3://}: a raster
 * layer's source, read by {@link TileResampler} window by window (the blocks each group of tiles
 * needs; a remote object in ranges, pinned to the generation planned). At planning its header is
 * read for its CRS, bands, sample type and no-data value; its content checksum is its identity.
 */
final class GeoTiffSourceFormat extends FileSourceFormat {

  GeoTiffSourceFormat() {
    super("geotiff", Set.of(), Set.of(), null);
  }

  @Override
  public boolean raster() {
    return true;
  }

  /**
   * One GeoTIFF, or a mosaic: several listed, or a local directory of {@code .tif} / {@code .tiff}
   * files (in name order). A mosaic's files must agree on CRS, bands, sample type and no data;
   * where they overlap the first wins.
   */
  @Override
  public LayerSource resolve(List<String> uris, SourceOptions options, Stores stores)
      throws IOException {
    List<String> files = new ArrayList<>();
    for (String uri : uris) {
      files.addAll(expand(uri));
    }
    if (files.size() == 1) {
      // One file is read as before, with the same identity: a job that names a directory of one
      // file keys its tiles as the job that names the file.
      return resolve(files.get(0), options, stores);
    }
    List<Resolved> parts = new ArrayList<>();
    for (String f : files) {
      Resolved part = (Resolved) resolve(f, options, stores);
      if (!parts.isEmpty()) {
        Resolved first = parts.get(0);
        String differs = differs(first, part);
        if (differs != null) {
          throw new SourceFieldException(
              "uri",
              String.join(", ", uris),
              "the mosaic's files must agree: "
                  + f
                  + " has "
                  + differs
                  + " where "
                  + files.get(0)
                  + " has another",
              null);
        }
      }
      parts.add(part);
    }
    return new Mosaic(parts);
  }

  /** What two files of a mosaic disagree on, or null. */
  private static String differs(Resolved a, Resolved b) {
    if (!java.util.Objects.equals(a.declaredCrs(), b.declaredCrs())) {
      return "the CRS " + b.declaredCrs();
    }
    if (a.bands() != b.bands()) {
      return b.bands() + " bands";
    }
    if (a.type() != b.type()) {
      return b.type().spelling() + " samples";
    }
    if (!java.util.Objects.equals(a.nodata(), b.nodata())) {
      return "no data " + b.nodata();
    }
    return null;
  }

  /** A location, or the GeoTIFFs of a local directory in name order. */
  private static List<String> expand(String uri) {
    if (uri.startsWith("gs://") || uri.startsWith("s3://")) {
      return List.of(uri);
    }
    Path dir;
    try {
      dir = Locations.localPath(uri);
    } catch (IllegalArgumentException e) {
      return List.of(uri);
    }
    if (!Files.isDirectory(dir)) {
      return List.of(uri);
    }
    try (Stream<Path> s = Files.list(dir)) {
      List<String> out =
          s.filter(Files::isRegularFile)
              .map(Path::toString)
              .filter(
                  n -> {
                    String lower = n.toLowerCase(Locale.ROOT);
                    return lower.endsWith(".tif") || lower.endsWith(".tiff");
                  })
              .sorted()
              .toList();
      if (out.isEmpty()) {
        throw new SourceFieldException(
            "uri", uri, "the directory holds no .tif or .tiff file", null);
      }
      return out;
    } catch (IOException e) {
      throw new SourceFieldException("uri", uri, "the directory cannot be listed: " + e, e);
    }
  }

  @Override
  LayerSource resolve(SourceFile file, SourceOptions options) throws IOException {
    try (TileResampler image = TileResampler.open(file)) {
      int bands = image.bandCount();
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
  /**
   * Several GeoTIFFs read as one source, the first listed winning where they overlap. Its identity
   * is the digest of its files' identities in order: changing, adding, removing or reordering a
   * file re-keys every tile.
   */
  record Mosaic(List<Resolved> parts) implements RasterSource {

    /** Copies the parts. */
    Mosaic {
      parts = List.copyOf(parts);
    }

    @Override
    public String identity() {
      StringBuilder all = new StringBuilder();
      parts.forEach(p -> all.append(p.identity()).append('\n'));
      return "mosaic:" + Sha256.hex(all.toString());
    }

    @Override
    public String declaredCrs() {
      return parts.get(0).declaredCrs();
    }

    @Override
    public List<SourceFile> files() {
      return parts.stream().map(Resolved::file).toList();
    }

    @Override
    public int bands() {
      return parts.get(0).bands();
    }

    @Override
    public SampleType type() {
      return parts.get(0).type();
    }

    @Override
    public Double nodata() {
      return parts.get(0).nodata();
    }
  }

  record Resolved(
      SourceFile file,
      String identity,
      String declaredCrs,
      int bands,
      SampleType type,
      Double nodata)
      implements RasterSource {}
}
