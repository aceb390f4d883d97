package io.tilebeam.pipeline.job;

import io.tilebeam.io.format.GeoParquetFormat;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.Stores;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job resolved against the world before anything runs: sources found and hashed, CRSs read,
 * extents checked, defaults filled in, the key template of each layer built. Every problem found
 * here is a {@link JobSpecException} naming the field, raised before anything is claimed or
 * written.
 */
public final class JobPlan {

  private static final Logger LOG = LoggerFactory.getLogger(JobPlan.class);

  private final String namespace;
  private final List<LayerPlan> layers;
  private final String digest;
  private final RetryPolicy retry;
  private final List<String> warnings;

  private JobPlan(
      String namespace, List<LayerPlan> layers, RetryPolicy retry, List<String> warnings) {
    this.namespace = namespace;
    this.layers = List.copyOf(layers);
    this.retry = retry;
    this.warnings = List.copyOf(warnings);
    StringBuilder all = new StringBuilder(namespace);
    layers.forEach(l -> all.append('\n').append(l.template().encode()));
    this.digest = Checksums.of(all.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Resolves a job. Relative paths are taken from the working directory.
   *
   * @throws JobSpecException when a source, CRS, extent or output cannot be used
   */
  public static JobPlan resolve(JobSpec spec) {
    return resolve(spec, RetryPolicy.DEFAULT);
  }

  /**
   * Resolves a job whose calls to outside systems (storage, ledger, source databases) retry
   * failures that may pass under {@code retry}.
   *
   * @throws JobSpecException when a source, CRS, extent or output cannot be used
   */
  public static JobPlan resolve(JobSpec spec, RetryPolicy retry) {
    Stores stores = Stores.fromEnvironment(retry);
    List<LayerPlan> layers = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    LayerPlanner planner = new LayerPlanner(spec.namespace(), stores, warnings);
    for (int i = 0; i < spec.layers().size(); i++) {
      layers.add(planner.plan(spec.layers().get(i), "layers[" + i + "]"));
    }
    // Said where the user sees it, once per resolution.
    warnings.forEach(w -> LOG.warn("{}", w));
    return new JobPlan(spec.namespace(), layers, retry, warnings);
  }

  /**
   * What the job asks for that it may not mean, in the words logged when it was resolved: a degree
   * box whose west and east, read by the antimeridian rule, make it wider than half the world.
   */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * The source columns each layer leaves out of its features' properties (layers without any left
   * out), by layer name, in job order.
   */
  public Map<String, List<String>> skippedColumns() {
    Map<String, List<String>> out = new java.util.LinkedHashMap<>();
    for (LayerPlan l : layers) {
      Map<String, String> skipped = l.source().skippedColumns();
      if (!skipped.isEmpty()) {
        out.put(l.name(), List.copyOf(skipped.keySet()));
      }
    }
    return out;
  }

  /** How the job's calls to outside systems retry failures that may pass. */
  public RetryPolicy retry() {
    return retry;
  }

  /** The job's namespace. */
  public String namespace() {
    return namespace;
  }

  /** The layers, in job order. */
  public List<LayerPlan> layers() {
    return layers;
  }

  /**
   * Whether the workers will open SIS's EPSG database, as far as this process knows: for a raster
   * layer, for GeoParquet written in a CRS other than CRS84 whose PROJJSON this build has not
   * remembered yet, and for a vector layer whose operations are not all known to be built in
   * ({@link CrsTransforms#builtIn}: a process that has not checked them against the database yet).
   */
  public boolean needsEpsgDatabase() {
    for (LayerPlan layer : layers) {
      if (!(layer instanceof VectorLayer v)) {
        return true;
      }
      CrsRef source = v.read().crs();
      CrsRef tms = v.render().tileMatrixSet().crs();
      CrsRef target = v.render().targetCrs();
      boolean projjson =
          v.publish().format() instanceof GeoParquetFormat
              && !GeoParquetFormat.crsWrittenWithoutDatabase(target);
      if (projjson
          || !CrsTransforms.builtIn(source, tms)
          || !CrsTransforms.builtIn(tms, source)
          || !CrsTransforms.builtIn(tms, target)) {
        return true;
      }
    }
    return false;
  }

  /** A digest of everything that decides the job's outputs, recorded with each run. */
  public String digest() {
    return digest;
  }

  /** The number of distinct tiles of all layers. */
  public long tileCount() {
    return layers.stream().mapToLong(l -> l.cover().count()).sum();
  }
}
