package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.junit.jupiter.api.Test;

class BeamOptionsTest {

  @Test
  void theDirectRunnersElementChecksAreOffUnlessAskedFor() {
    DirectOptions byDefault =
        Tilebeam.beamOptions(List.of("--runner=DirectRunner")).as(DirectOptions.class);
    assertFalse(byDefault.isEnforceImmutability());
    assertFalse(byDefault.isEnforceEncodability());

    DirectOptions asked =
        Tilebeam.beamOptions(
                List.of(
                    "--runner=DirectRunner", "--enforceImmutability=true", "--enforceEncodability"))
            .as(DirectOptions.class);
    assertTrue(asked.isEnforceImmutability());
    assertTrue(asked.isEnforceEncodability());
  }

  @Test
  void withoutARunnerAnEmbeddedFlinkUsesEveryCore() {
    FlinkPipelineOptions flink = Tilebeam.beamOptions(List.of()).as(FlinkPipelineOptions.class);
    assertEquals(FlinkRunner.class, flink.getRunner());
    assertEquals("[local]", flink.getFlinkMaster());
    assertEquals(Runtime.getRuntime().availableProcessors(), flink.getParallelism());
    assertTrue(flink.getFasterCopy());

    FlinkPipelineOptions one =
        Tilebeam.beamOptions(List.of("--parallelism=1")).as(FlinkPipelineOptions.class);
    assertEquals(1, one.getParallelism());
  }

  @Test
  void theEmbeddedFlinksSortMemoryIsAFixedSizeASlotUnlessFlinkIsConfigured() throws Exception {
    FlinkPipelineOptions embedded =
        Tilebeam.beamOptions(List.of("--parallelism=3")).as(FlinkPipelineOptions.class);
    java.nio.file.Path conf =
        java.nio.file.Path.of(embedded.getFlinkConfDir()).resolve("flink-conf.yaml");
    assertTrue(
        java.nio.file.Files.readString(conf).contains("taskmanager.memory.managed.size: 384m"),
        java.nio.file.Files.readString(conf));
    assertTrue(
        java.nio.file.Files.readString(conf).contains("taskmanager.memory.segment-size: 128kb"),
        java.nio.file.Files.readString(conf));
    // Beyond 8 slots Flink's own pages: its 64 MB of network buffers are enough buffers for them,
    // up to 22 slots; then n² times 128 KiB, up to 1 GB.
    assertEquals(
        java.util.Map.of("taskmanager.memory.managed.size", "1152m"),
        EmbeddedFlinkMemory.settings(9));
    assertEquals(
        java.util.Map.of("taskmanager.memory.managed.size", "2816m"),
        EmbeddedFlinkMemory.settings(22));
    assertEquals(
        java.util.Map.of(
            "taskmanager.memory.managed.size", "6144m",
            "taskmanager.memory.network.min", "288m",
            "taskmanager.memory.network.max", "288m"),
        EmbeddedFlinkMemory.settings(48));
    assertEquals("1024m", EmbeddedFlinkMemory.settings(200).get("taskmanager.memory.network.max"));

    FlinkPipelineOptions given =
        Tilebeam.beamOptions(List.of("--flinkConfDir=/etc/flink")).as(FlinkPipelineOptions.class);
    assertEquals("/etc/flink", given.getFlinkConfDir());

    FlinkPipelineOptions byEnv =
        Tilebeam.beamOptions(List.of("--runner=FlinkRunner", "--flinkMaster=[local]"))
            .as(FlinkPipelineOptions.class);
    byEnv.setFlinkConfDir(null);
    EmbeddedFlinkMemory.apply(byEnv, name -> name.equals("FLINK_CONF_DIR") ? "/etc/flink" : null);
    assertEquals(null, byEnv.getFlinkConfDir(), "Flink's own configuration is the user's");

    FlinkPipelineOptions cluster =
        Tilebeam.beamOptions(List.of("--runner=FlinkRunner", "--flinkMaster=jm:8081"))
            .as(FlinkPipelineOptions.class);
    assertEquals(null, cluster.getFlinkConfDir(), "a cluster's memory is its own");
  }

  @Test
  void otherRunnersAreLeftAsGiven() {
    assertEquals(
        FlinkRunner.class,
        Tilebeam.beamOptions(List.of("--runner=FlinkRunner", "--flinkMaster=[local]")).getRunner());
  }

  @Test
  void flinkGivenByNameCopiesCheaplyUnlessToldOtherwise() {
    FlinkPipelineOptions named =
        Tilebeam.beamOptions(List.of("--runner=FlinkRunner")).as(FlinkPipelineOptions.class);
    assertTrue(named.getFasterCopy());
    FlinkPipelineOptions told =
        Tilebeam.beamOptions(List.of("--runner=FlinkRunner", "--fasterCopy=false"))
            .as(FlinkPipelineOptions.class);
    assertFalse(told.getFasterCopy());
  }

  @Test
  void flinkPipelinesEveryExchangeUnlessToldOtherwise() {
    FlinkPipelineOptions embedded = Tilebeam.beamOptions(List.of()).as(FlinkPipelineOptions.class);
    assertEquals("PIPELINED_FORCED", embedded.getExecutionModeForBatch());
    FlinkPipelineOptions told =
        Tilebeam.beamOptions(List.of("--runner=FlinkRunner", "--executionModeForBatch=BATCH"))
            .as(FlinkPipelineOptions.class);
    assertEquals("BATCH", told.getExecutionModeForBatch());
  }

  @Test
  void optionsFoundValidAreBuiltOnlyWhenNeededAndBadOnesAreRefusedEveryTime() {
    List<String> good = List.of("--runner=DirectRunner", "--targetParallelism=3");
    BeamOptions first = BeamOptions.start(good);
    assertTrue(first.started(), "never found valid: built at once");
    first.check();

    BeamOptions again = BeamOptions.start(good);
    again.check();
    assertFalse(again.started(), "found valid before: not built for a run without work");
    assertEquals(3, again.get().as(DirectOptions.class).getTargetParallelism());

    List<String> bad = List.of("--runner=DirectRunner", "--targetParallelismm=3");
    for (int i = 0; i < 2; i++) {
      BeamOptions b = BeamOptions.start(bad);
      assertTrue(b.started());
      assertThrows(UsageException.class, b::check);
    }
  }

  @Test
  void anUnknownOptionIsABadArgument() {
    UsageException e =
        assertThrows(UsageException.class, () -> Tilebeam.beamOptions(List.of("--parallelismm=2")));
    assertTrue(e.getMessage().contains("parallelismm"), e.getMessage());
  }
}
