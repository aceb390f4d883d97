package io.tilebeam.pipeline.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.beam.runners.flink.FlinkPipelineOptions;

/**
 * The sort memory of the embedded Flink ({@code --flinkMaster=[local]}), the size of its memory
 * pages and, on many slots, its network memory, set by tilebeam unless the user gives Flink a
 * configuration of their own ({@code --flinkConfDir} or {@code FLINK_CONF_DIR}).
 *
 * <p>Why: without one, Beam sizes the embedded TaskManager's managed memory at 40 % of the heap
 * free when the job starts, off the heap and on top of {@code -Xmx}: 760 MB under {@code -Xmx2g},
 * which Flink takes when its sorts open (the join of pieces by tile sorts everything the reading
 * cut), about 380 MB of it for the countries at zooms 0-8; and a JVM without {@code -Xmx} on a
 * large machine would add gigabytes. tilebeam's largest sorted record is bounded (pieces go in
 * parts of 256 KiB, see {@code PieceParts}), so a fixed {@link #BYTES_PER_SLOT} a slot is enough.
 *
 * <p>Beam reads Flink's settings only from a configuration directory, so this writes one, with that
 * one setting, to a temporary directory removed when the JVM exits.
 */
final class EmbeddedFlinkMemory {

  /**
   * Managed (sort) memory per task slot. Flink's sort then takes records up to about 12 MB (a
   * slot's memory over 11: 8 MB gave 753,664 bytes), far above tilebeam's. On the countries at
   * zooms 0-8 (scripts/bench/mvt-countries.sh, runs taken in turn): 64 MB a slot 123-133 CPU-s and
   * 1.17-1.26 GB peak RSS, 128 MB 118-125 and 1.12-1.22 GB, 256 MB 129-130 and 1.34-1.38 GB, Beam's
   * 40 % (760 MB) 119-123 and 1.35-1.36 GB.
   */
  static final long BYTES_PER_SLOT = 128L << 20;

  /**
   * The size of Flink's memory pages (its network buffers and the pages of its sorts) up to {@link
   * #LARGE_PAGES_UP_TO} slots: 128 KiB, where Flink's own is 32 KiB. Pieces of large features, up
   * to 256 KiB each, then cross the exchange by tile and the sort in fewer pages: on the countries
   * at zooms 0-5 (scripts/bench/mvt-countries.sh, six pairs taken in turn) 1.3 CPU-s less a run and
   * 1.2 s less wall time, with the same tiles; 256 KiB saved about as much (twelve pairs, 1.6
   * CPU-s).
   */
  static final String LARGE_PAGE = "128kb";

  /**
   * Slots up to which the pages are {@link #LARGE_PAGE}. The network memory stays Flink's 64 MB,
   * taken whole at start, so larger pages are fewer buffers, and a job needs more of them the more
   * slots run at once: the sample job and a one-tile job of the countries' graph started with up to
   * 12 slots on 512 buffers of 128 KiB (16 slots did not, nor 3 on 256 buffers of 256 KiB); Flink's
   * own 2,048 of 32 KiB start 32 slots. More memory would add to the peak RSS the whole of it.
   */
  static final int LARGE_PAGES_UP_TO = 8;

  /**
   * Network memory a job of n slots takes, n² times this: Flink's 64 MB of its own 32 KiB buffers
   * did not start the countries' graph on 48 slots (one slot per core on a machine of 48 cores), as
   * all of its steps run at once and each exchange between n tasks and n more needs buffers of
   * both; four buffers of 32 KiB for each pair of slots started 48 and 64 slots.
   */
  static final long NETWORK_BYTES_PER_SLOT_PAIR = 4 * (32L << 10);

  /** Flink's own network memory, the least tilebeam gives it. */
  static final long MIN_NETWORK_BYTES = 64L << 20;

  /** The most network memory tilebeam gives Flink (Flink's own ceiling). */
  static final long MAX_NETWORK_BYTES = 1L << 30;

  private EmbeddedFlinkMemory() {}

  /**
   * Points {@code flink} at a configuration directory that sets the managed memory to {@link
   * #BYTES_PER_SLOT} a slot, when it runs the embedded Flink without a configuration of its own;
   * else leaves it as it is. {@code env} reads the environment.
   */
  static void apply(FlinkPipelineOptions flink, Function<String, String> env) {
    if (!"[local]".equals(flink.getFlinkMaster())
        || flink.getFlinkConfDir() != null
        || env.apply("FLINK_CONF_DIR") != null) {
      return;
    }
    int slots =
        flink.getParallelism() > 0
            ? flink.getParallelism()
            : Runtime.getRuntime().availableProcessors();
    flink.setFlinkConfDir(write(settings(slots)).toString());
  }

  /** The settings for {@code slots} task slots, as Flink's configuration file has them. */
  static Map<String, String> settings(int slots) {
    // Sorted: the same file on every run.
    Map<String, String> settings = new TreeMap<>();
    settings.put("taskmanager.memory.managed.size", (slots * BYTES_PER_SLOT >> 20) + "m");
    if (slots <= LARGE_PAGES_UP_TO) {
      settings.put("taskmanager.memory.segment-size", LARGE_PAGE);
      return settings;
    }
    // Flink's own pages; its network memory grows only where its own would be too little.
    long network = (long) slots * slots * NETWORK_BYTES_PER_SLOT_PAIR;
    if (network > MIN_NETWORK_BYTES) {
      String size = (Math.min(MAX_NETWORK_BYTES, network) >> 20) + "m";
      settings.put("taskmanager.memory.network.min", size);
      settings.put("taskmanager.memory.network.max", size);
    }
    return settings;
  }

  private static Path write(Map<String, String> settings) {
    try {
      Path dir = Files.createTempDirectory("tilebeam-flink-");
      // Deleted in the reverse order of these calls: the file, then its directory.
      dir.toFile().deleteOnExit();
      Path file = dir.resolve("flink-conf.yaml");
      file.toFile().deleteOnExit();
      StringBuilder text = new StringBuilder("# Written by tilebeam for its embedded Flink.\n");
      settings.forEach((k, v) -> text.append(k).append(": ").append(v).append('\n'));
      Files.writeString(file, text, StandardCharsets.UTF_8);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the embedded Flink's configuration: " + e, e);
    }
  }
}
