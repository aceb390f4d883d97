package io.tilebeam.transforms.key;

import io.tilebeam.transforms.tiling.PlannedTile;
import io.tilebeam.transforms.tiling.PlannedTileCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.Rule;
import org.junit.Test;

/**
 * Stage 2, KeyWork, on its own: each planned tile gets its layer's work with the tile filled in,
 * keyed by the golden key of that work (the values of {@code WorkKeyTest}).
 */
public class KeyWorkTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  @Test
  public void eachPlannedTileIsKeyedWithItsLayersWork() {
    Map<String, TileWork> templates =
        Map.of(
            "countries", KeyHasherTest.template("countries", "{}"),
            // A second planned layer whose work names the same data layer, buffered.
            "buffered", KeyHasherTest.template("countries", "{\"bufferPixels\":8}"));
    PCollection<String> keyed =
        pipeline
            .apply(
                Create.of(
                        new PlannedTile("countries", TileId.of(0, 0, 0)),
                        new PlannedTile("buffered", TileId.of(5, 17, 11)))
                    .withCoder(PlannedTileCoder.of()))
            .apply(KeyWork.withTemplates(templates))
            .apply(
                MapElements.into(TypeDescriptors.strings())
                    .via(
                        kv ->
                            kv.getValue().layer()
                                + " "
                                + kv.getValue().tile().path()
                                + " "
                                + kv.getKey().value()));
    PAssert.that(keyed)
        .containsInAnyOrder(
            List.of(
                "countries 0/0/0 da6clc76ihr2cjf2vwejb3nkcupatyy4wkpnhwuk6jcervxyqdbq",
                "countries 5/17/11 y5plhancvjt5nifl6ax4hjnfi7yw5t6cwvsr6g7rxqpvglnhffsa"));
    pipeline.run().waitUntilFinish();
  }
}
