package io.tilebeam.transforms.raster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.codec.tiff.GeoTiffEncoder;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A raster tile survives its coding, every sample type, no data and NaN included. */
class RasterContentCoderTest {

  @ParameterizedTest
  @EnumSource(SampleType.class)
  void aTileComesBackWhole(SampleType type) throws Exception {
    double nodata = type == SampleType.FLOAT32 ? Double.NaN : type == SampleType.INT16 ? -32768 : 0;
    double[] samples = new double[3 * 2 * 2];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = type.store(i % 5 == 0 ? nodata : i * 997.25 - (type.integral() ? 0 : 3000));
    }
    TileWork w =
        new TileWork(
            "ns",
            1,
            "dem",
            "WebMercatorQuad",
            TileId.of(9, 267, 179),
            "sha256:aa",
            "EPSG:32632",
            "EPSG:3857",
            "geotiff",
            "{}");
    RasterContent c =
        new RasterContent(
            WorkKey.of(w),
            w,
            new RasterTile(3, 2, 2, type, nodata, samples),
            new GeoTiffEncoder.Georeference(3857, false, 1.5, 2.5, 0.25, 0.5));
    RasterContent back =
        CoderUtils.decodeFromByteArray(
            RasterContentCoder.of(), CoderUtils.encodeToByteArray(RasterContentCoder.of(), c));
    assertEquals(c, back);
  }
}
