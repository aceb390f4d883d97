package io.tilebeam.io.raster;

import io.tilebeam.transforms.crs.Bounds;
import java.awt.image.BandedSampleModel;
import java.awt.image.DataBuffer;
import java.awt.image.Raster;
import java.awt.image.RenderedImage;
import java.awt.image.WritableRaster;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.sis.coverage.SampleDimension;
import org.apache.sis.coverage.grid.DisjointExtentException;
import org.apache.sis.coverage.grid.GridCoverage;
import org.apache.sis.coverage.grid.GridCoverageBuilder;
import org.apache.sis.coverage.grid.GridCoverageProcessor;
import org.apache.sis.coverage.grid.GridExtent;
import org.apache.sis.coverage.grid.GridGeometry;
import org.apache.sis.coverage.grid.GridOrientation;
import org.apache.sis.geometry.GeneralEnvelope;
import org.apache.sis.storage.DataStoreException;
import org.apache.sis.storage.GridCoverageResource;
import org.apache.sis.storage.NoSuchDataException;
import org.apache.sis.storage.StorageConnector;
import org.apache.sis.storage.geotiff.GeoTiffStore;
import org.apache.sis.storage.geotiff.GeoTiffStoreProvider;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.referencing.operation.TransformException;

/**
 * Cuts raster tiles out of one GeoTIFF (COG included) with Apache SIS: for each tile, the source
 * window it needs is read (at the overview level SIS finds fit), its no-data pixels become NaN so
 * that no kernel mixes them into a value, and it is resampled into the tile's grid, whose pixels
 * are areas with the tile's bounds as outer edges (as {@code gdalwarp -te ... -ts ...}). Pixels the
 * source does not cover, or whose kernel meets no-data, are the tile's no-data.
 *
 * <p>Opened once per reading worker; not thread-safe.
 */
public final class TileResampler implements AutoCloseable {

  private final GeoTiffStore store;
  private final GridCoverageResource image;

  private TileResampler(GeoTiffStore store, GridCoverageResource image) {
    this.store = store;
    this.image = image;
  }

  /**
   * Opens a GeoTIFF's first image.
   *
   * @throws DataStoreException when the file is not a GeoTIFF SIS can read
   */
  public static TileResampler open(Path file) throws DataStoreException {
    GeoTiffStore store = new GeoTiffStore(new GeoTiffStoreProvider(), new StorageConnector(file));
    try {
      List<GridCoverageResource> images = store.components();
      if (images.isEmpty()) {
        throw new NoSuchDataException("the GeoTIFF holds no image");
      }
      return new TileResampler(store, images.get(0));
    } catch (DataStoreException | RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** The source's grid: its extent, CRS and georeferencing. */
  public GridGeometry grid() throws DataStoreException {
    return image.getGridGeometry();
  }

  /**
   * The AWT data type of the source's samples ({@code DataBuffer.TYPE_*}; 16-bit unsigned samples
   * are {@code TYPE_USHORT}, signed {@code TYPE_SHORT}, as SIS sets from the file's sample format).
   */
  public int sampleDataType() throws DataStoreException {
    // Reading the whole coverage is lazy: only the image's layout is made, no tile is read.
    return image.read(null).render(null).getSampleModel().getDataType();
  }

  /** The source's bands, with the no-data value (background) SIS read for each, if any. */
  public List<SampleDimension> bands() throws DataStoreException {
    return image.getSampleDimensions();
  }

  /**
   * The no-data value the source declares (GDAL's {@code GDAL_NODATA}), if any: SIS reads it as
   * each band's background.
   */
  public Optional<Double> declaredNodata() throws DataStoreException {
    for (SampleDimension band : bands()) {
      Optional<Number> background = band.getBackground();
      if (background.isPresent()) {
        return Optional.of(background.get().doubleValue());
      }
    }
    return Optional.empty();
  }

  /**
   * One tile: the pixels of {@code bands} (0-based) over {@code bounds} in {@code crs}, {@code size
   * × size}, resampled by {@code resampling}; source pixels equal to {@code nodataIn} (if not null)
   * count as no data; the result is stored as {@code type}, no data as {@code nodataOut}.
   *
   * @throws DataStoreException when the window cannot be read
   * @throws TransformException when the tile cannot be placed in the source's CRS
   */
  public RasterTile render(
      Bounds bounds,
      CoordinateReferenceSystem crs,
      int size,
      int[] bands,
      Resampling resampling,
      Double nodataIn,
      SampleType type,
      double nodataOut)
      throws DataStoreException, TransformException {
    GeneralEnvelope envelope = new GeneralEnvelope(crs);
    envelope.setRange(0, bounds.minX(), bounds.maxX());
    envelope.setRange(1, bounds.minY(), bounds.maxY());
    GridGeometry target =
        new GridGeometry(new GridExtent(size, size), envelope, GridOrientation.REFLECTION_Y);
    double[] samples = new double[size * size * bands.length];
    java.util.Arrays.fill(samples, nodataOut);
    try {
      resample(target, bands, resampling, nodataIn, type, nodataOut, samples);
    } catch (NoSuchDataException | DisjointExtentException e) {
      // The tile lies outside the source (a tile of the extent's corners, which a source in
      // another CRS does not reach; SIS may find so only when the window is read): all no data,
      // not a failure.
      java.util.Arrays.fill(samples, nodataOut);
    }
    return new RasterTile(size, size, bands.length, type, nodataOut, samples);
  }

  /** Reads the window {@code target} needs and resamples it into {@code samples}. */
  private void resample(
      GridGeometry target,
      int[] bands,
      Resampling resampling,
      Double nodataIn,
      SampleType type,
      double nodataOut,
      double[] samples)
      throws DataStoreException, TransformException {
    int size = (int) target.getExtent().getSize(0);
    GridCoverage window = image.read(target, bands);
    GridCoverageProcessor processor = new GridCoverageProcessor();
    processor.setInterpolation(resampling.kernel());
    processor.setFillValues(Double.NaN);
    GridCoverage resampled = processor.resample(withNodataAsNaN(window, nodataIn), target);
    RenderedImage image = resampled.render(null);
    Raster raster = image.getData();
    int x0 = image.getMinX();
    int y0 = image.getMinY();
    int w = Math.min(size, image.getWidth());
    int h = Math.min(size, image.getHeight());
    // A band at a time, in bulk: a sample at a time through the raster costs a dispatch each.
    double[] band = new double[w * h];
    for (int b = 0; b < bands.length; b++) {
      raster.getSamples(x0, y0, w, h, b, band);
      for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
          double v = band[y * w + x];
          samples[(y * size + x) * bands.length + b] = Double.isNaN(v) ? nodataOut : type.store(v);
        }
      }
    }
  }

  /** The window as 32-bit floats with no-data pixels NaN, on the same grid. */
  private static GridCoverage withNodataAsNaN(GridCoverage window, Double nodataIn) {
    RenderedImage source = window.render(null);
    Raster in = source.getData();
    int bands = in.getNumBands();
    WritableRaster out =
        Raster.createWritableRaster(
            new BandedSampleModel(
                DataBuffer.TYPE_FLOAT, source.getWidth(), source.getHeight(), bands),
            null);
    int w = source.getWidth();
    int h = source.getHeight();
    float[] samples = new float[w * h];
    for (int b = 0; b < bands; b++) {
      in.getSamples(source.getMinX(), source.getMinY(), w, h, b, samples);
      if (nodataIn != null) {
        for (int i = 0; i < samples.length; i++) {
          if (samples[i] == nodataIn) {
            samples[i] = Float.NaN;
          }
        }
      }
      out.setSamples(0, 0, w, h, b, samples);
    }
    return new GridCoverageBuilder().setValues(out).setDomain(window.getGridGeometry()).build();
  }

  @Override
  public void close() throws DataStoreException {
    store.close();
  }
}
