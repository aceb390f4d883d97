package io.tilebeam.transforms.raster;

import io.tilebeam.codec.ByteRanges;
import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.codec.tiff.RangeChannel;
import io.tilebeam.codec.tiff.RangeReader;
import io.tilebeam.codec.tiff.TiffDirectory;
import io.tilebeam.codec.tiff.TiffFile;
import io.tilebeam.transforms.crs.Bounds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.sis.coverage.grid.GridGeometry;
import org.apache.sis.coverage.grid.PixelInCell;
import org.apache.sis.geometry.Envelopes;
import org.apache.sis.geometry.GeneralEnvelope;
import org.apache.sis.referencing.CRS;
import org.apache.sis.referencing.operation.transform.MathTransforms;
import org.apache.sis.storage.DataStoreException;
import org.apache.sis.storage.GridCoverageResource;
import org.apache.sis.storage.NoSuchDataException;
import org.apache.sis.storage.StorageConnector;
import org.apache.sis.storage.geotiff.GeoTiffStore;
import org.apache.sis.storage.geotiff.GeoTiffStoreProvider;
import org.opengis.geometry.Envelope;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.referencing.operation.MathTransform;
import org.opengis.referencing.operation.TransformException;
import org.opengis.util.FactoryException;

/**
 * Cuts raster tiles out of one GeoTIFF (COG included), as {@code gdalwarp -te <tile> -ts <size>
 * <size> -r <method> -et 0} would: the tile's pixels are areas with its bounds as outer edges; each
 * pixel centre is transformed exactly into the source; the source level is the one GDAL picks for
 * the tile's resolution (the coarsest overview not coarser than the tile, by GDAL's rule); values
 * are computed by {@link Kernels}. Pixels the source does not cover, or whose kernel meets only no
 * data, are the tile's no data.
 *
 * <p>Several tiles are rendered from one read of the source where their windows fit together in
 * {@link #WINDOW_SAMPLES} samples, so a compressed source block is inflated once for them all; a
 * tile's pixels never depend on which tiles it was read with. A tile whose window alone exceeds the
 * budget is rendered in strips of rows, so memory stays bounded for a source without overviews.
 *
 * <p>Opened once per reading worker; not thread-safe.
 */
public final class TileResampler implements AutoCloseable {

  /** The most samples (pixels × bands) one window of source pixels holds: 64 MB of floats. */
  static final long WINDOW_SAMPLES = 1L << 24;

  /** The most bytes of decoded source blocks kept for the next windows. */
  static final long CACHED_BYTES = 64L << 20;

  static {
    // SIS reads a GeoTIFF's CRS from its EPSG database, which starts Derby: its log goes nowhere.
    io.tilebeam.transforms.crs.DerbyLog.install();
  }

  private final GeoTiffStore store;
  private final GridCoverageResource image;
  private final TiffFile tiff;
  private final List<SourceLevel> levels;
  private final BlockCache blocks;
  private final CoordinateReferenceSystem givenCrs;
  private final Map<CoordinateReferenceSystem, MathTransform> toSource = new HashMap<>();
  private final Map<CoordinateReferenceSystem, Bounds> reaches = new HashMap<>();

  private TileResampler(
      GeoTiffStore store,
      GridCoverageResource image,
      TiffFile tiff,
      List<SourceLevel> levels,
      CoordinateReferenceSystem givenCrs) {
    this.store = store;
    this.image = image;
    this.tiff = tiff;
    this.levels = levels;
    this.givenCrs = givenCrs;
    this.blocks = new BlockCache(tiff, CACHED_BYTES);
  }

  /**
   * Opens a local GeoTIFF's first image.
   *
   * @throws DataStoreException when the file is not a GeoTIFF that can be read
   */
  public static TileResampler open(Path file) throws DataStoreException {
    try {
      return open(RangeReader.of(file), null);
    } catch (IOException e) {
      throw new DataStoreException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Opens a GeoTIFF's first image, local or remote; a remote one is read in ranges (its header,
   * then the blocks each window needs), never whole.
   *
   * @throws DataStoreException when the bytes are not a GeoTIFF that can be read
   */
  public static TileResampler open(ByteRanges source) throws DataStoreException {
    return open(source, null);
  }

  /**
   * Opens a GeoTIFF's first image, local or remote, in {@code crs} when it declares none (the job's
   * {@code source.crs}; null for none).
   *
   * @throws DataStoreException when the bytes are not a GeoTIFF that can be read
   */
  public static TileResampler open(ByteRanges source, CoordinateReferenceSystem crs)
      throws DataStoreException {
    try {
      return open(RangeReader.of(source), crs);
    } catch (IOException e) {
      throw new DataStoreException(source.describe() + ": " + e.getMessage(), e);
    }
  }

  private static TileResampler open(RangeReader bytes, CoordinateReferenceSystem givenCrs)
      throws DataStoreException {
    TiffFile tiff;
    try {
      // Our own reader first: every size its header states is checked against the file before
      // SIS, which trusts them, reads the georeferencing.
      tiff = TiffFile.open(bytes);
    } catch (IOException e) {
      throw new DataStoreException(e.getMessage(), e);
    }
    GeoTiffStore store = null;
    try {
      store =
          new GeoTiffStore(
              new GeoTiffStoreProvider(), new StorageConnector(new RangeChannel(bytes)));
      List<GridCoverageResource> images = store.components();
      if (images.isEmpty()) {
        throw new NoSuchDataException("the GeoTIFF holds no image");
      }
      GridCoverageResource image = images.get(0);
      return new TileResampler(store, image, tiff, levels(image, tiff, bytes.size()), givenCrs);
    } catch (IOException e) {
      close(store, tiff);
      throw new DataStoreException(e.getMessage(), e);
    } catch (DataStoreException | RuntimeException e) {
      close(store, tiff);
      throw e;
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // Closing bytes only read from: nothing to lose.
    }
  }

  private static void close(GeoTiffStore store, java.io.Closeable bytes) throws DataStoreException {
    closeQuietly(bytes);
    if (store != null) {
      store.close();
    }
  }

  /**
   * The image's levels, its pixels read from the TIFF's own directories (the full resolution, then
   * the overviews from the finest; overviews this reader cannot decode left out), placed by SIS's
   * georeferencing of the full resolution.
   */
  private static List<SourceLevel> levels(GridCoverageResource image, TiffFile tiff, long size)
      throws DataStoreException {
    GridGeometry grid = image.getGridGeometry();
    List<SourceLevel> out = new ArrayList<>();
    List<TiffDirectory> directories = tiff.levels();
    TiffDirectory full = directories.get(0);
    String unreadable = full.unreadable();
    if (unreadable != null) {
      throw new DataStoreException(unreadable);
    }
    for (TiffDirectory d : tiff.directories()) {
      String cut = d.beyond(size);
      if (cut != null) {
        throw new DataStoreException(cut);
      }
    }
    if (!grid.isDefined(GridGeometry.GRID_TO_CRS | GridGeometry.EXTENT)) {
      // Without a place every tile would be no data, silently.
      throw new DataStoreException(
          "the TIFF has no georeferencing (no ModelTiepoint and ModelPixelScale, no"
              + " ModelTransformation): tilebeam cannot tell where its pixels are");
    }
    try {
      MathTransform gridToCrs = grid.getGridToCRS(PixelInCell.CELL_CORNER);
      if (gridToCrs instanceof org.apache.sis.referencing.operation.transform.LinearTransform l
          && !finite(l.getMatrix())) {
        throw new DataStoreException(
            "its georeferencing is not finite or cannot be inverted: " + l.getMatrix());
      }
      MathTransform crsToGrid = gridToCrs.inverse();
      out.add(new SourceLevel(0, full, 1, crsToGrid, tiff.maskOf(full)));
      for (TiffDirectory d : directories.subList(1, directories.size())) {
        if (d.unreadable() != null) {
          continue;
        }
        double fx = (double) full.width() / d.width();
        double fy = (double) full.height() / d.height();
        MathTransform toLevel =
            MathTransforms.concatenate(crsToGrid, MathTransforms.scale(1 / fx, 1 / fy));
        out.add(new SourceLevel(out.size(), d, fx, toLevel, tiff.maskOf(d)));
      }
    } catch (TransformException e) {
      throw new DataStoreException("the image's grid cannot be inverted: " + e.getMessage(), e);
    }
    return out;
  }

  /** Whether every element of {@code m} is finite and its 2 x 2 part can be inverted. */
  private static boolean finite(org.opengis.referencing.operation.Matrix m) {
    for (int r = 0; r < m.getNumRow(); r++) {
      for (int c = 0; c < m.getNumCol(); c++) {
        if (!Double.isFinite(m.getElement(r, c))) {
          return false;
        }
      }
    }
    double det = m.getElement(0, 0) * m.getElement(1, 1) - m.getElement(0, 1) * m.getElement(1, 0);
    return det != 0 && Double.isFinite(det);
  }

  /** The source's grid: its extent, CRS and georeferencing. */
  public GridGeometry grid() throws DataStoreException {
    return image.getGridGeometry();
  }

  /**
   * The type of the source's samples, or null when it is none tiles hold (8- and 16-bit integers
   * and 32-bit floats are), read from the TIFF's own tags.
   */
  public SampleType sampleType() {
    TiffDirectory d = tiff.levels().get(0);
    return SampleType.ofTiff(d.bitsPerSample(), d.sampleFormat());
  }

  /** The source's sample width and format, for messages: {@code 32-bit format 2}. */
  public String sampleDescription() {
    TiffDirectory d = tiff.levels().get(0);
    return d.bitsPerSample() + "-bit samples of TIFF sample format " + d.sampleFormat();
  }

  /** How many bands the source has (its TIFF's samples a pixel). */
  public int bandCount() {
    return tiff.levels().get(0).samplesPerPixel();
  }

  /**
   * The no-data value the source declares in GDAL's {@code GDAL_NODATA} tag, if any, read from the
   * file itself for every sample type (SIS 1.6 reads none for a Float32 COG); a tag that holds no
   * number is refused when the file is opened.
   */
  public Optional<Double> declaredNodata() {
    return tiff.nodata();
  }

  /**
   * Tiles over {@code bounds} in {@code crs} (its first axis east or west, as the matrix set's), in
   * their order: the pixels of the settings' bands (0-based), source pixels equal to the settings'
   * no data in (if not null) count as no data; the result is stored as their type, no data as their
   * no data out. Tiles the source does not reach are all no data.
   *
   * @throws DataStoreException when a window cannot be read
   * @throws TransformException when the tiles cannot be placed in the source's CRS
   */
  public List<RasterTile> render(
      List<Bounds> bounds, CoordinateReferenceSystem crs, TileSettings settings)
      throws DataStoreException, TransformException {
    List<TilePlacement> placed = new ArrayList<>();
    Bounds reach = reach(crs);
    for (Bounds b : bounds) {
      boolean meets =
          reach == null
              || (b.minX() <= reach.maxX()
                  && b.maxX() >= reach.minX()
                  && b.minY() <= reach.maxY()
                  && b.maxY() >= reach.minY());
      placed.add(
          TilePlacement.of(b, settings.size(), meets ? levels : List.of(), transformTo(crs)));
    }
    List<RasterTile> out = new ArrayList<>();
    for (TilePlacement p : placed) {
      out.add(p.blank(settings));
    }
    for (List<TilePlacement.Part> window :
        TilePlacement.windows(placed, settings, WINDOW_SAMPLES)) {
      RasterWindow pixels = read(window, settings);
      for (TilePlacement.Part part : window) {
        part.render(pixels, settings, out.get(placed.indexOf(part.tile())));
      }
    }
    return out;
  }

  /**
   * Where in {@code crs} the source can be, widened by a tenth of its size on each side, for a
   * quick test that spares tiles far from it the exact placement of every pixel; null when that
   * cannot be told safely (no CRS, a failed or world-wide transformation), and then every tile is
   * placed.
   */
  private Bounds reach(CoordinateReferenceSystem crs) {
    if (reaches.containsKey(crs)) {
      return reaches.get(crs);
    }
    Bounds out = null;
    try {
      GridGeometry grid = image.getGridGeometry();
      GeneralEnvelope source = new GeneralEnvelope(grid.getEnvelope());
      if (!grid.isDefined(GridGeometry.CRS) && givenCrs != null) {
        source.setCoordinateReferenceSystem(givenCrs);
      }
      if (source.getCoordinateReferenceSystem() != null) {
        Envelope e = Envelopes.transform(source, crs);
        double w = e.getSpan(0);
        double h = e.getSpan(1);
        if (Double.isFinite(w) && Double.isFinite(h) && w > 0 && h > 0) {
          out =
              new Bounds(
                  e.getMinimum(0) - w / 10,
                  e.getMinimum(1) - h / 10,
                  e.getMaximum(0) + w / 10,
                  e.getMaximum(1) + h / 10);
        }
      }
    } catch (DataStoreException | TransformException | RuntimeException e) {
      // No quick test: every tile is placed exactly, which is right, only slower.
      out = null;
    }
    reaches.put(crs, out);
    return out;
  }

  /** The transform from {@code crs} to the source's CRS. */
  private MathTransform transformTo(CoordinateReferenceSystem crs) throws TransformException {
    MathTransform t = toSource.get(crs);
    if (t == null) {
      try {
        GridGeometry grid = image.getGridGeometry();
        CoordinateReferenceSystem source =
            grid.isDefined(GridGeometry.CRS) ? grid.getCoordinateReferenceSystem() : givenCrs;
        if (source == null) {
          throw new TransformException("the GeoTIFF declares no CRS and none was given");
        }
        t = CRS.findOperation(crs, source, null).getMathTransform();
      } catch (FactoryException | DataStoreException e) {
        throw new TransformException("no transformation to the source's CRS: " + e, e);
      }
      toSource.put(crs, t);
    }
    return t;
  }

  /** The source pixels the parts of one window need, read once at their level. */
  private RasterWindow read(List<TilePlacement.Part> parts, TileSettings settings)
      throws DataStoreException {
    TilePlacement.Area area = TilePlacement.Area.of(parts);
    try {
      return RasterWindow.read(
          blocks,
          parts.get(0).level(),
          settings.bands(),
          area.column0(),
          area.row0(),
          (int) (area.column1() - area.column0()),
          (int) (area.row1() - area.row0()),
          settings.nodataIn());
    } catch (IOException e) {
      throw new DataStoreException("cannot read the source: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws DataStoreException {
    close(store, tiff);
  }
}
