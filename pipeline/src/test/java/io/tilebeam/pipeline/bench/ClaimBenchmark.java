package io.tilebeam.pipeline.bench;

import io.tilebeam.io.ledger.EmbeddedLedger;
import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.LedgerIO;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.io.ledger.RunSettings;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.key.WorkKeyCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;

/**
 * Claims per second through FilterAgainstLedger (the stateful DoFn, batches of 500) against raw
 * batched {@code INSERT … ON CONFLICT} of the same keys, on the same embedded PostgreSQL, each into
 * a fresh schema. Args: key count (default 100000), then Beam options (the runner). Run with {@code
 * scripts/bench/claims.sh}.
 *
 * <p>Two rates are printed for each. The wall-clock rate: keys over the time from the first
 * statement (or the pipeline's start, runner start-up and key generation included) to the end. The
 * ledger-clock rate: keys over the span between the first and the last claim as the database
 * stamped them ({@code claimed_at} is the statement's {@code now()}), the same measure for both
 * sides; it is the rate of the claim stage itself, without the runner's start-up.
 */
public final class ClaimBenchmark {

  private static final int CHUNK = 1000;
  private static final int BATCH = RunSettings.DEFAULT_BATCH_SIZE;

  private ClaimBenchmark() {}

  static KV<WorkKey, TileWork> work(int i) {
    TileWork w =
        new TileWork(
            "bench",
            1,
            "claims",
            "WebMercatorQuad",
            TileId.of(17, i % 131072, i / 131072),
            "sha256:ab",
            "OGC:CRS84",
            "EPSG:3857",
            "geojson",
            "{}");
    return KV.of(WorkKey.of(w), w);
  }

  /** Makes the work of one chunk of indices. */
  static final class MakeWork extends DoFn<Integer, KV<WorkKey, TileWork>> {
    private final int total;

    MakeWork(int total) {
      this.total = total;
    }

    @ProcessElement
    public void process(@Element Integer from, OutputReceiver<KV<WorkKey, TileWork>> out) {
      for (int i = from; i < Math.min(total, from + CHUNK); i++) {
        out.output(work(i));
      }
    }
  }

  /** One side's figures. */
  private record Rate(String name, int keys, double wallSeconds, double ledgerSeconds) {
    double wall() {
      return keys / wallSeconds;
    }

    /** The first statement's keys are claimed at the span's start: they are not in it. */
    double ledger() {
      return (keys - BATCH) / ledgerSeconds;
    }

    void print() {
      System.out.printf(
          "%-40s %8.0f keys/s wall clock (%.2f s), %8.0f keys/s ledger clock (%.2f s)%n",
          name, wall(), wallSeconds, ledger(), ledgerSeconds);
    }
  }

  /** Runs the benchmark and prints both sides' rates and their ratios. */
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    String[] beamArgs = args.length > 1 ? Arrays.copyOfRange(args, 1, args.length) : new String[0];
    List<KV<WorkKey, TileWork>> work = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      work.add(work(i));
    }
    try (EmbeddedLedger server = EmbeddedLedger.start(Files.createTempDirectory("claim-bench"))) {
      Rate raw = raw(server.config().withSchema("raw"), work);
      Rate statement = statement(server.config().withSchema("statement"), work);
      Rate pipeline = pipeline(server.config().withSchema("pipeline"), work, beamArgs);
      raw.print();
      statement.print();
      pipeline.print();
      System.out.printf(
          "claims: %d keys on %s; FilterAgainstLedger / raw: %.2f by the ledger clock,"
              + " %.2f by the wall clock (runner start-up included)%n",
          n,
          Arrays.toString(beamArgs),
          pipeline.ledger() / raw.ledger(),
          pipeline.wall() / raw.wall());
    }
  }

  private static Rate raw(LedgerConfig config, List<KV<WorkKey, TileWork>> work) throws Exception {
    LedgerSchema.migrate(config);
    long start = System.nanoTime();
    try (Connection c = config.connect();
        PreparedStatement st =
            c.prepareStatement(
                "INSERT INTO tiles (work_key, namespace, layer, tile_matrix_set, z, x, y, run_id,"
                    + " claimed_at) SELECT k, 'bench', 'claims', 'WebMercatorQuad', z, x, y, 'raw',"
                    + " now() FROM unnest(?::text[], ?::int4[], ?::int8[], ?::int8[]) AS u(k, z, x, y)"
                    + " ON CONFLICT (work_key) DO NOTHING RETURNING work_key")) {
      for (int from = 0; from < work.size(); from += BATCH) {
        List<KV<WorkKey, TileWork>> batch = work.subList(from, Math.min(work.size(), from + BATCH));
        st.setArray(
            1, c.createArrayOf("text", batch.stream().map(kv -> kv.getKey().value()).toArray()));
        st.setArray(
            2,
            c.createArrayOf("int4", batch.stream().map(kv -> kv.getValue().tile().z()).toArray()));
        st.setArray(
            3,
            c.createArrayOf("int8", batch.stream().map(kv -> kv.getValue().tile().x()).toArray()));
        st.setArray(
            4,
            c.createArrayOf("int8", batch.stream().map(kv -> kv.getValue().tile().y()).toArray()));
        try (ResultSet rs = st.executeQuery()) {
          while (rs.next()) {
            rs.getString(1);
          }
        }
      }
    }
    return rate("raw batched INSERT ... ON CONFLICT", config, work.size(), start);
  }

  /** Ledger.claim alone, one connection, no runner: what the stage's statement costs. */
  private static Rate statement(LedgerConfig config, List<KV<WorkKey, TileWork>> work)
      throws Exception {
    LedgerSchema.migrate(config);
    long start = System.nanoTime();
    try (Ledger ledger = Ledger.open(config)) {
      for (int from = 0; from < work.size(); from += BATCH) {
        List<Map.Entry<WorkKey, TileWork>> batch = new ArrayList<>();
        for (KV<WorkKey, TileWork> kv : work.subList(from, Math.min(work.size(), from + BATCH))) {
          batch.add(Map.entry(kv.getKey(), kv.getValue()));
        }
        ledger.claim("statement", Duration.ofHours(1), false, batch);
      }
    }
    return rate("Ledger.claim statements alone", config, work.size(), start);
  }

  private static Rate pipeline(
      LedgerConfig config, List<KV<WorkKey, TileWork>> work, String[] beamArgs) throws Exception {
    LedgerSchema.migrate(config);
    Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs(beamArgs).create());
    // Keys are made inside the pipeline, as KeyWork makes them, not shipped in through Create.
    List<Integer> chunks = new ArrayList<>();
    for (int i = 0; i < work.size(); i += CHUNK) {
      chunks.add(i);
    }
    p.apply(Create.of(chunks))
        .apply(ParDo.of(new MakeWork(work.size())))
        .setCoder(KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of()))
        .apply(LedgerIO.claim(config, RunSettings.of("run-bench", Duration.ofHours(1))))
        .apply(Count.globally());
    long start = System.nanoTime();
    p.run().waitUntilFinish();
    return rate("FilterAgainstLedger (pipeline)", config, work.size(), start);
  }

  private static Rate rate(String name, LedgerConfig config, int keys, long startNanos)
      throws SQLException {
    double wall = (System.nanoTime() - startNanos) / 1e9;
    try (Connection c = config.connect();
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT extract(epoch FROM max(claimed_at) - min(claimed_at)), count(*)"
                        + " FROM tiles")) {
      rs.next();
      if (rs.getLong(2) != keys) {
        throw new IllegalStateException(name + " claimed " + rs.getLong(2) + " of " + keys);
      }
      return new Rate(name, keys, wall, rs.getDouble(1));
    }
  }
}
