package io.tilebeam.pipeline.bench;

import io.tilebeam.io.ledger.ClaimSettings;
import io.tilebeam.io.ledger.EmbeddedLedger;
import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.LedgerIO;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.key.WorkKeyCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.file.Files;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * batched {@code INSERT … ON CONFLICT} of the same number of keys, on the same embedded PostgreSQL,
 * each into a fresh schema. Args: key count (default 100000), then Beam options (the runner). Run
 * with {@code scripts/bench/claims.sh}.
 */
public final class ClaimBenchmark {

  private static final int CHUNK = 1000;

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

  /** Runs the benchmark and prints both rates and their ratio. */
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    String[] beamArgs =
        args.length > 1 ? java.util.Arrays.copyOfRange(args, 1, args.length) : new String[0];
    List<KV<WorkKey, TileWork>> work = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      work.add(work(i));
    }
    try (EmbeddedLedger server = EmbeddedLedger.start(Files.createTempDirectory("claim-bench"))) {
      double raw = raw(server.config().withSchema("raw"), work);
      double pipeline = pipeline(server.config().withSchema("pipeline"), work, beamArgs);
      System.out.printf(
          "claims: %d keys; raw batched INSERT ... ON CONFLICT: %.0f keys/s;"
              + " FilterAgainstLedger: %.0f keys/s; ratio %.2f%n",
          n, raw, pipeline, pipeline / raw);
    }
  }

  private static double raw(LedgerConfig config, List<KV<WorkKey, TileWork>> work)
      throws Exception {
    LedgerSchema.migrate(config);
    long start = System.nanoTime();
    try (Connection c = config.connect();
        PreparedStatement st =
            c.prepareStatement(
                "INSERT INTO tiles (work_key, namespace, layer, tile_matrix_set, z, x, y, run_id,"
                    + " claimed_at) SELECT k, 'bench', 'claims', 'WebMercatorQuad', z, x, y, 'raw',"
                    + " now() FROM unnest(?::text[], ?::int4[], ?::int8[], ?::int8[]) AS u(k, z, x, y)"
                    + " ON CONFLICT (work_key) DO NOTHING RETURNING work_key")) {
      for (int from = 0; from < work.size(); from += ClaimSettings.DEFAULT_BATCH_SIZE) {
        List<KV<WorkKey, TileWork>> batch =
            work.subList(from, Math.min(work.size(), from + ClaimSettings.DEFAULT_BATCH_SIZE));
        st.setArray(1, array(c, "text", batch.stream().map(kv -> kv.getKey().value()).toArray()));
        st.setArray(
            2, array(c, "int4", batch.stream().map(kv -> kv.getValue().tile().z()).toArray()));
        st.setArray(
            3, array(c, "int8", batch.stream().map(kv -> kv.getValue().tile().x()).toArray()));
        st.setArray(
            4, array(c, "int8", batch.stream().map(kv -> kv.getValue().tile().y()).toArray()));
        try (var rs = st.executeQuery()) {
          while (rs.next()) {
            rs.getString(1);
          }
        }
      }
    }
    return work.size() / ((System.nanoTime() - start) / 1e9);
  }

  private static Array array(Connection c, String type, Object[] values) throws Exception {
    return c.createArrayOf(type, values);
  }

  private static double pipeline(
      LedgerConfig config, List<KV<WorkKey, TileWork>> work, String[] beamArgs) {
    LedgerSchema.migrate(config);
    Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs(beamArgs).create());
    // Keys are made inside the pipeline, as KeyWork makes them, not shipped in through Create.
    List<Integer> chunks = new ArrayList<>();
    for (int i = 0; i < work.size(); i += CHUNK) {
      chunks.add(i);
    }
    int total = work.size();
    p.apply(Create.of(chunks))
        .apply(ParDo.of(new MakeWork(total)))
        .setCoder(KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of()))
        .apply(LedgerIO.claim(config, ClaimSettings.of("run-bench", Duration.ofHours(1))))
        .apply(Count.globally());
    long start = System.nanoTime();
    p.run().waitUntilFinish();
    return work.size() / ((System.nanoTime() - start) / 1e9);
  }
}
