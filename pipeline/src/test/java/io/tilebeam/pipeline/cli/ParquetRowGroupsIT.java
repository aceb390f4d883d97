package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.codec.parquet.HostileParquet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GeoParquet file of two row groups far apart (60°W and 100°E, with bbox covering statistics),
 * cut over an extent that only the first meets: the second is skipped unread, and the report says
 * so ({@code rowGroupsSkipped}); over the whole world both are read.
 */
class ParquetRowGroupsIT {

  @TempDir Path dir;

  private JsonNode run(String name, String bbox) throws Exception {
    Path file = Files.write(dir.resolve("groups.parquet"), HostileParquet.good());
    Path job = dir.resolve(name + ".yaml");
    Files.writeString(
        job,
        "namespace: row-groups-"
            + name
            + "\nlayers:\n  - name: l\n    source: {uri: "
            + file
            + ", format: geoparquet}\n    extents: [{bbox: "
            + bbox
            + "}]\n    tileMatrixSet: WebMercatorQuad\n    zooms: [4, 4]\n"
            + "    targetCrs: EPSG:3857\n    output: {uri: "
            + dir.resolve("out-" + name)
            + ", format: geojson}\n");
    return TestJobs.runReporting(
        dir.resolve(name + ".json"),
        "--job",
        job.toString(),
        "--home",
        dir.resolve("home").toString(),
        "--runner=DirectRunner");
  }

  @Test
  void aRowGroupThatMeetsNoClaimedTileIsSkippedAndCounted() throws Exception {
    JsonNode west = run("west", "[-70, 0, -30, 40]");
    assertEquals(1, west.get("rowGroupsSkipped").asLong(), west.toString());
    assertEquals(20, west.get("featuresRead").asLong(), west.toString());

    JsonNode world = run("world", "[-180, -85, 180, 85]");
    assertEquals(0, world.get("rowGroupsSkipped").asLong(), world.toString());
    assertEquals(40, world.get("featuresRead").asLong(), world.toString());
  }
}
