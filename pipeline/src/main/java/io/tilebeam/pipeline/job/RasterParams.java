package io.tilebeam.pipeline.job;

import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.io.source.RasterSource;
import io.tilebeam.transforms.raster.Resampling;
import io.tilebeam.transforms.raster.TileSettings;
import java.util.Arrays;

/**
 * A raster layer's parameters as its job gives them, each null when not given. {@link #settings}
 * fills in the defaults from the source into the {@link TileSettings} RenderRasters uses and the
 * keys hold, so that changing any of them (the resampling, a no-data value, the bands, the type,
 * the tile size) re-keys every tile of the layer.
 *
 * <p>Defaults: {@code nearest}; 256 pixels; every band; the source's no-data value and sample type;
 * as output no-data the input's when the output type holds it, else 0 for unsigned types, -32768
 * for int16 and NaN for float32. A source that declares no no-data value (most imagery) gets none
 * out either when its tiles are integers: which pixels it reaches is the tiles' coverage
 * (transparency in a PNG, a mask in a GeoTIFF), and its values are kept as they are; float tiles
 * get NaN, which no sample with data can be.
 *
 * @param resampling how pixels are computed
 * @param tileSize pixels a tile side
 * @param bands the source bands, 1-based as the job numbers them
 * @param nodata source samples that count as no data (overrides the source's)
 * @param outputNodata the output no-data value
 * @param dataType the output sample type
 */
public record RasterParams(
    Resampling resampling,
    Integer tileSize,
    int[] bands,
    Double nodata,
    Double outputNodata,
    SampleType dataType)
    implements LayerParams {

  /** A job that gives no parameters. */
  public static final RasterParams NONE = new RasterParams(null, null, null, null, null, null);

  /** The tile side in pixels when the job sets none: the matrix sets' usual 256. */
  static final int DEFAULT_TILE_SIZE = 256;

  /** Copies the bands. */
  public RasterParams {
    bands = bands == null ? null : bands.clone();
  }

  /** The bands, 1-based (a copy), or null. */
  @Override
  public int[] bands() {
    return bands == null ? null : bands.clone();
  }

  /**
   * The settings of the layer's tiles: these parameters against {@code source}, defaults filled in.
   *
   * @throws JobSpecException naming the parameter the source cannot meet ({@code path} is the
   *     layer's)
   */
  TileSettings settings(RasterSource source, String path) {
    int[] zeroBased = new int[bands == null ? source.bands() : bands.length];
    for (int i = 0; i < zeroBased.length; i++) {
      int band = bands == null ? i + 1 : bands[i];
      if (band > source.bands()) {
        throw new JobSpecException(
            path + ".params.bands",
            Arrays.toString(bands),
            "band " + band + " does not exist: the source has " + source.bands());
      }
      zeroBased[i] = band - 1;
    }
    Double nodataIn = nodata != null ? nodata : source.nodata();
    SampleType type = dataType != null ? dataType : source.type();
    if (outputNodata != null && !type.holds(outputNodata)) {
      throw new JobSpecException(
          path + ".params.outputNodata",
          outputNodata,
          "is not a value " + type.spelling() + " samples hold");
    }
    return new TileSettings(
        tileSize != null ? tileSize : DEFAULT_TILE_SIZE,
        zeroBased,
        resampling != null ? resampling : Resampling.NEAREST,
        nodataIn,
        type,
        outputNodata != null ? outputNodata : defaultOutputNodata(nodataIn, type));
  }

  /** The output's no-data value when the job gives none (see the class comment). */
  private static Double defaultOutputNodata(Double nodataIn, SampleType type) {
    if (nodataIn != null && type.holds(nodataIn)) {
      return nodataIn;
    }
    if (nodataIn == null && type.integral()) {
      return null;
    }
    return switch (type) {
      case INT16 -> (double) Short.MIN_VALUE;
      case FLOAT32 -> Double.NaN;
      default -> 0.0;
    };
  }

  /** Equal when every parameter is: a record would compare the band arrays by identity. */
  @Override
  public boolean equals(Object o) {
    return o instanceof RasterParams r
        && java.util.Objects.equals(resampling, r.resampling)
        && java.util.Objects.equals(tileSize, r.tileSize)
        && Arrays.equals(bands, r.bands)
        && java.util.Objects.equals(nodata, r.nodata)
        && java.util.Objects.equals(outputNodata, r.outputNodata)
        && java.util.Objects.equals(dataType, r.dataType);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(
        resampling, tileSize, Arrays.hashCode(bands), nodata, outputNodata, dataType);
  }

  @Override
  public String toString() {
    return "RasterParams[resampling="
        + resampling
        + ", tileSize="
        + tileSize
        + ", bands="
        + Arrays.toString(bands)
        + ", nodata="
        + nodata
        + ", outputNodata="
        + outputNodata
        + ", dataType="
        + dataType
        + "]";
  }
}
