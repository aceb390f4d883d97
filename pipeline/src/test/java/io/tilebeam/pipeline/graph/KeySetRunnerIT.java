package io.tilebeam.pipeline.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tilebeam.pipeline.cli.TestJobs;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.JobSpecParser;
import io.tilebeam.pipeline.job.LayerPlan;
import io.tilebeam.transforms.key.KeyWork;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.PlanTiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PlanTiles and KeyWork give the same keys on the DirectRunner, on Flink and in the planner. */
@Tag("slow")
class KeySetRunnerIT {

  @TempDir Path dir;

  private JobPlan plan() throws IOException {
    return JobPlan.resolve(JobSpecParser.parse(TestJobs.sample(dir)));
  }

  private Set<String> keysOn(JobPlan plan, String name, String... runner) throws IOException {
    Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs(runner).create());
    Map<String, TileWork> templates = new HashMap<>();
    plan.layers().forEach(l -> templates.put(l.name(), l.template()));
    p.apply(PlanTiles.of(plan.layers().stream().map(LayerPlan::tiling).toList()))
        .apply(KeyWork.withTemplates(templates))
        .apply(MapElements.into(TypeDescriptors.strings()).via(kv -> kv.getKey().value()))
        .apply(TextIO.write().to(dir.resolve(name).resolve("keys").toString()));
    p.run().waitUntilFinish();
    Set<String> keys = new HashSet<>();
    try (Stream<Path> files = Files.list(dir.resolve(name))) {
      for (Path f : files.toList()) {
        keys.addAll(Files.readAllLines(f));
      }
    }
    return keys;
  }

  @Test
  void directFlinkAndThePlannerAgreeOnEveryKey() throws IOException {
    JobPlan plan = plan();
    Set<String> planned = new HashSet<>();
    for (LayerPlan l : plan.layers()) {
      l.tiling()
          .cover()
          .forEachTile(t -> planned.add(WorkKey.of(l.template().withTile(t)).value()));
    }
    assertEquals(173, planned.size());
    assertEquals(planned, keysOn(plan, "direct", "--runner=DirectRunner"));
    assertEquals(
        planned,
        keysOn(plan, "flink", "--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2"));
  }
}
