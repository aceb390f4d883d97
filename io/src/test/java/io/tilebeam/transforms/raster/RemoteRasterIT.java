package io.tilebeam.transforms.raster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.GcsStandIn;
import io.tilebeam.io.source.SourceFile;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.sis.storage.DataStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opengis.referencing.crs.CoordinateReferenceSystem;

/**
 * A GeoTIFF in Google Cloud Storage — the in-process {@link GcsStandIn}, spoken to by the real GCS
 * client, since no real bucket can be reached here — renders the same tiles as the local file,
 * reading it in ranges pinned to the generation planned, never whole.
 */
class RemoteRasterIT {

  @TempDir Path dir;

  @Test
  void aGcsObjectRendersTheLocalFilesTilesReadInRanges() throws Exception {
    Path file = TestRasters.utmDem(dir);
    try (GcsStandIn server = GcsStandIn.start()) {
      server.createBucket("rasters");
      GcsSettings settings = new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT);
      Storage storage = settings.open();
      storage.create(
          BlobInfo.newBuilder(BlobId.of("rasters", "dem.tif")).build(), Files.readAllBytes(file));
      SourceFile object =
          SourceFile.resolve("gs://rasters/dem.tif", io.tilebeam.io.storage.Stores.of(settings));
      List<Bounds> tiles = new ArrayList<>();
      for (long x = 1067; x <= 1072; x++) {
        tiles.add(TestRasters.webMercator(11, x, 718));
      }
      CoordinateReferenceSystem mercator = CrsResolver.resolve("EPSG:3857");
      TileSettings s =
          new TileSettings(
              256,
              new int[] {0},
              Resampling.CUBIC,
              (double) TestRasters.NODATA,
              SampleType.INT16,
              -32768.0);
      List<RasterTile> local;
      try (TileResampler r = TileResampler.open(file)) {
        local = r.render(tiles, mercator, s);
      }
      int before = server.requests().size();
      List<RasterTile> remote;
      try (TileResampler r = TileResampler.open(object)) {
        assertEquals(SampleType.INT16, r.sampleType());
        remote = r.render(tiles, mercator, s);
      }
      assertEquals(local, remote);
      assertFalse(local.get(2).empty());
      List<String> reads = server.requests().subList(before, server.requests().size());
      assertTrue(reads.stream().allMatch(q -> q.contains("generation=")), reads.toString());
      // The header (one read-ahead chunk) and the two full-resolution blocks the tiles meet.
      assertEquals(3, reads.size(), reads.toString());

      // Replaced since planning: the pinned generation is gone, and the read fails, not mixes.
      storage.create(
          BlobInfo.newBuilder(BlobId.of("rasters", "dem.tif")).build(), new byte[] {1, 2, 3});
      storage.close();
      assertThrows(DataStoreException.class, () -> TileResampler.open(object).close());
    }
  }
}
