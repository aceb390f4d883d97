package io.tilebeam.pipeline.job;

import io.tilebeam.io.format.RasterFormat;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.ArchiveSpec;
import io.tilebeam.io.sink.OutputChecks;
import io.tilebeam.io.sink.OutputLocation;
import io.tilebeam.io.sink.PostGisTileSink;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.source.LayerSource;
import io.tilebeam.io.source.RasterSource;
import io.tilebeam.io.source.SourceFieldException;
import io.tilebeam.io.source.SourceFormat;
import io.tilebeam.io.source.SourceFormats;
import io.tilebeam.io.source.SourceSpec;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.Stores;
import io.tilebeam.pipeline.job.JobSpec.ExtentSpec;
import io.tilebeam.pipeline.job.JobSpec.LayerSpec;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.crs.UnknownCrsException;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.tiling.Extent;
import io.tilebeam.transforms.tiling.ExtentNormalizer;
import io.tilebeam.transforms.tiling.InvalidExtentException;
import io.tilebeam.transforms.tiling.LayerTiling;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import io.tilebeam.transforms.tiling.TileMatrixSetJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    for (int i = 0; i < spec.layers().size(); i++) {
      layers.add(
          layer(spec.namespace(), spec.layers().get(i), "layers[" + i + "]", stores, warnings));
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
      Map<String, String> skipped = l.source().source().skippedColumns();
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

  /** A digest of everything that decides the job's outputs, recorded with each run. */
  public String digest() {
    return digest;
  }

  /** The number of distinct tiles of all layers. */
  public long tileCount() {
    return layers.stream().mapToLong(l -> l.cover().count()).sum();
  }

  private static LayerPlan layer(
      String namespace, LayerSpec l, String path, Stores stores, List<String> warnings) {
    TileMatrixSet tms = tileMatrixSet(l.tileMatrixSet(), path + ".tileMatrixSet");
    if (l.maxZoom() > tms.maxZoom()) {
      throw new JobSpecException(
          path + ".zooms",
          "[" + l.minZoom() + ", " + l.maxZoom() + "]",
          tms.id() + " defines zooms 0 to " + tms.maxZoom());
    }
    CrsRef target = crs(l.targetCrs(), path + ".targetCrs");
    SourceFormat format = SourceFormats.named(l.sourceFormat()).orElseThrow();
    LayerSource source = source(format, l, path, stores);
    if (!source.skippedColumns().isEmpty()) {
      List<String> named = new ArrayList<>();
      source.skippedColumns().forEach((c, why) -> named.add(c + " (" + why + ")"));
      warnings.add(
          path
              + ".source.uri "
              + l.sourceUri()
              + ": columns not read as properties: "
              + String.join(", ", named));
    }
    CrsRef sourceCrs = sourceCrs(l, format, source.declaredCrs(), path);
    List<Bounds> boxes = new ArrayList<>();
    List<Extent> extents = extents(l, tms, path, warnings, boxes);
    TileFormat tileFormat = tileFormat(l, source, path);
    OutputLocation output = outputLocation(l, path);
    ArchiveSpec archive =
        archived(l)
            ? new ArchiveSpec(output, l.name(), tileFormat, l.minZoom(), l.maxZoom(), stores)
            : null;
    PublishSpec publish =
        publishSpec(
            l, archive == null ? output : archive.staging(), tileFormat, target, path, stores);
    checkFormatRules(l, tileFormat, tms, target, path);
    checkContentKind(l, tileFormat, source, path);
    LayerTiling tiling = new LayerTiling(l.name(), tms, extents, l.minZoom(), l.maxZoom());
    if (source instanceof RasterSource raster) {
      RasterParams params = RasterParams.of(l.params(), raster, path);
      return new LayerPlan(
          tiling,
          tiling.cover(boxes),
          template(
              namespace,
              l,
              tms,
              source,
              sourceCrs,
              target,
              keyedOutput(l, tileFormat),
              params.json()),
          new SourceSpec(source, new CutSpec(sourceCrs, tms, l.minZoom(), l.maxZoom(), 0, 0)),
          new RenderSpec(tms, target, 0),
          publish,
          RasterPlans.spec(l, path, tms, target, sourceCrs, raster, tileFormat, params),
          archive);
    }
    LayerParams params = LayerParams.of(l.params(), target, tileFormat);
    RenderSpec render = new RenderSpec(tms, target, params.precision());
    return new LayerPlan(
        tiling,
        tiling.cover(boxes),
        template(
            namespace,
            l,
            tms,
            source,
            sourceCrs,
            target,
            keyedOutput(l, tileFormat),
            params.json()),
        new SourceSpec(
            source,
            new CutSpec(
                sourceCrs,
                tms,
                l.minZoom(),
                l.maxZoom(),
                params.bufferPixels(),
                params.simplifyPixels(),
                render.cutterGridDigits(),
                tileFormat != null && tileFormat.dropsSpecks())),
        render,
        publish,
        null,
        archive);
  }

  /**
   * The layer's work with a placeholder tile: everything that decides its tiles' outputs. {@code
   * output} is the output format, and for an archive the tiles inside ({@code pmtiles/mvt}): a
   * layer moved into or out of an archive is staged elsewhere, so its tiles are made again.
   */
  private static TileWork template(
      String namespace,
      LayerSpec l,
      TileMatrixSet tms,
      LayerSource source,
      CrsRef sourceCrs,
      CrsRef target,
      String output,
      String params) {
    return new TileWork(
        namespace,
        Algorithm.VERSION,
        l.name(),
        tms.identity(),
        TileId.of(0, 0, 0),
        source.identity(),
        sourceCrs.identity(),
        target.identity(),
        output,
        params);
  }

  /**
   * The layer's source found, checked and identified by its format, before anything is claimed.
   *
   * @throws JobSpecException naming the source field that cannot be used
   * @throws UncheckedIOException when a source that was found cannot be read now: no fault of the
   *     job (exit 1, not 2)
   */
  private static LayerSource source(SourceFormat format, LayerSpec l, String path, Stores stores) {
    try {
      return format.resolve(l.sourceUris(), l.sourceOptions(), stores);
    } catch (SourceFieldException e) {
      // A database URL may hold a password.
      String value = e.field().equals("uri") ? PgConnections.mask(l.sourceUri()) : e.value();
      throw new JobSpecException(path + ".source." + e.field(), value, e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(
          path + ".source.uri " + l.sourceUri() + " cannot be read: " + e.getMessage(), e);
    }
  }

  /** A built-in set by name, or a set read from an OGC TMS JSON file at that path. */
  private static TileMatrixSet tileMatrixSet(String value, String field) {
    Path file = Path.of(value);
    if (!value.toLowerCase(java.util.Locale.ROOT).endsWith(".json") && !Files.isRegularFile(file)) {
      try {
        return TileMatrixSet.builtIn(value);
      } catch (IllegalArgumentException e) {
        throw new JobSpecException(
            field, value, e.getMessage() + ", or the path of an OGC TMS JSON file");
      }
    }
    String json;
    try {
      json = Files.readString(file);
    } catch (IOException e) {
      throw new JobSpecException(field, value, "cannot read the tile matrix set file: " + e, e);
    }
    try {
      return TileMatrixSetJson.parse(json);
    } catch (IllegalArgumentException e) {
      throw new JobSpecException(field, value, "not a usable OGC TMS JSON: " + e.getMessage(), e);
    }
  }

  /**
   * The job's CRS, else the one the source declares (a GeoJSON {@code crs} member, a FlatGeobuf
   * header, a PostGIS SRID), else RFC 7946's CRS84 for GeoJSON; the two must agree. GeoJSONSeq
   * records declare none: RFC 8142 says CRS84. A FlatGeobuf file or PostGIS table that declares
   * none needs the job's.
   */
  private static CrsRef sourceCrs(LayerSpec l, SourceFormat format, String declared, String path) {
    String from = path + "." + format.declaredCrsField();
    CrsRef fromSource = null;
    if (declared != null) {
      try {
        fromSource = CrsRef.of(declared);
      } catch (UnknownCrsException e) {
        // A declaration SIS cannot read is only an error when there is nothing else to go by.
        if (l.sourceCrs() == null) {
          throw new JobSpecException(from, declared, "unknown CRS: give source.crs", e);
        }
      }
    }
    if (l.sourceCrs() == null) {
      if (fromSource != null) {
        return fromSource;
      }
      if (format.impliedCrs() != null) {
        return CrsRef.of(format.impliedCrs());
      }
      throw new JobSpecException(
          path + ".source.crs", null, "the source declares no CRS: the job must give one");
    }
    CrsRef fromJob = crs(l.sourceCrs(), path + ".source.crs");
    if (fromSource != null && !sameAxesIgnored(fromSource, fromJob)) {
      throw new JobSpecException(
          path + ".source.crs",
          l.sourceCrs(),
          "contradicts the CRS the source declares (" + fromSource.identity() + ")");
    }
    return fromJob;
  }

  /** EPSG:4326 and CRS84 differ only in axis order, which tilebeam always forces to east/north. */
  private static boolean sameAxesIgnored(CrsRef a, CrsRef b) {
    return a.identity().equals(b.identity()) || (isWgs84(a.identity()) && isWgs84(b.identity()));
  }

  private static boolean isWgs84(String identity) {
    return identity.equals("EPSG:4326") || identity.equals(CrsResolver.CRS84);
  }

  /**
   * The layer's extents, each checked and normalised into the matrix set's CRS: the boxes are added
   * to {@code boxes}, for the layer's cover.
   */
  private static List<Extent> extents(
      LayerSpec l, TileMatrixSet tms, String path, List<String> warnings, List<Bounds> boxes) {
    List<Extent> out = new ArrayList<>();
    for (int j = 0; j < l.extents().size(); j++) {
      ExtentSpec e = l.extents().get(j);
      String at = path + ".extents[" + j + "]";
      CrsRef crs = crs(e.crs(), at + ".crs");
      Extent extent = new Extent(e.bbox()[0], e.bbox()[1], e.bbox()[2], e.bbox()[3], crs);
      try {
        boxes.addAll(ExtentNormalizer.normalize(extent, tms));
      } catch (InvalidExtentException e2) {
        throw new JobSpecException(
            at + ".bbox", java.util.Arrays.toString(e.bbox()), e2.getMessage(), e2);
      }
      double crossing = ExtentNormalizer.crossingWidth(extent);
      if (crossing > 180) {
        // The documented rule holds (west > east crosses the antimeridian), but a box wider than
        // half the world that way round is more often a swapped pair.
        warnings.add(
            String.format(
                java.util.Locale.ROOT,
                "%s.bbox %s: west %s > east %s is read as crossing the antimeridian, a box %s°"
                    + " wide; swap west and east for the %s° box between them",
                at,
                java.util.Arrays.toString(e.bbox()),
                e.bbox()[0],
                e.bbox()[2],
                crossing,
                360 - crossing));
      }
      out.add(extent);
    }
    return out;
  }

  /** The output format as the keys see it. */
  private static String keyedOutput(LayerSpec l, TileFormat tileFormat) {
    return archived(l) ? l.outputFormat() + "/" + tileFormat.name() : l.outputFormat();
  }

  /** Whether the layer is published as one PMTiles archive. */
  private static boolean archived(LayerSpec l) {
    return l.outputFormat().equals(ArchiveSpec.FORMAT);
  }

  /** The encodings a PMTiles archive can hold: those its header has a tile type for. */
  private static final Set<String> ARCHIVED_TILES =
      Set.of("mvt", "png", "terrarium", "terrain-rgb");

  /**
   * The layer's tile encoding (for an archive, the tiles inside: {@code output.tiles}, by default
   * MVT for features and PNG for pixels), or null when it writes rows into a PostGIS table.
   */
  private static TileFormat tileFormat(LayerSpec l, LayerSource source, String path) {
    if (l.outputFormat().equals("postgis")) {
      return null;
    }
    if (!archived(l)) {
      return TileFormat.named(l.outputFormat());
    }
    String inside = l.outputTiles();
    if (inside == null) {
      inside = source instanceof RasterSource ? "png" : "mvt";
    }
    if (!ARCHIVED_TILES.contains(inside)) {
      throw new JobSpecException(
          path + ".output.tiles",
          inside,
          "a pmtiles archive holds tiles of one of " + new java.util.TreeSet<>(ARCHIVED_TILES));
    }
    return TileFormat.named(inside);
  }

  /** Parses the layer's output location; nothing is written. */
  private static OutputLocation outputLocation(LayerSpec l, String path) {
    try {
      return OutputLocation.parse(l.outputUri(), l.outputFormat(), l.outputTable());
    } catch (IllegalArgumentException e) {
      boolean table = e instanceof OutputLocation.BadTable;
      throw new JobSpecException(
          path + (table ? ".output.table" : ".output.uri"),
          table ? l.outputTable() : PgConnections.mask(l.outputUri()),
          e.getMessage(),
          e);
    }
  }

  /**
   * Checks where the layer's tiles are published (for an archive, its staging area); nothing is
   * written.
   */
  private static PublishSpec publishSpec(
      LayerSpec l,
      OutputLocation location,
      TileFormat format,
      CrsRef target,
      String path,
      Stores stores) {
    if (location instanceof OutputLocation.PostGis && PostGisTileSink.srid(target) < 0) {
      throw new JobSpecException(
          path + ".targetCrs", l.targetCrs(), "a PostGIS output needs a CRS with an EPSG code");
    }
    PublishSpec spec = new PublishSpec(location, format, target, stores);
    try {
      OutputChecks.check(spec);
    } catch (IllegalArgumentException e) {
      throw new JobSpecException(
          path + ".output.uri", PgConnections.mask(l.outputUri()), e.getMessage(), e);
    }
    return spec;
  }

  /** Features go to a vector encoding or a table, pixels to a raster encoding. */
  private static void checkContentKind(
      LayerSpec l, TileFormat format, LayerSource source, String path) {
    boolean rasterOut = format instanceof RasterFormat;
    boolean rasterIn = source instanceof RasterSource;
    String field = archived(l) ? path + ".output.tiles" : path + ".output.format";
    String value = archived(l) ? format.name() : l.outputFormat();
    if (rasterOut && !rasterIn) {
      throw new JobSpecException(field, value, value + " output needs a raster source");
    }
    if (!rasterOut && rasterIn) {
      throw new JobSpecException(
          field, value, "a raster source needs a raster output (geotiff or png)");
    }
  }

  /** What a tile format asks of the layer: vector tiles, for one, are Web Mercator tiles. */
  private static void checkFormatRules(
      LayerSpec l, TileFormat format, TileMatrixSet tms, CrsRef target, String path) {
    if (format == null) {
      return;
    }
    if (archived(l) && !tms.id().equals("WebMercatorQuad")) {
      // PMTiles addresses tiles by z/x/y of the Web Mercator pyramid only.
      throw new JobSpecException(
          path + ".tileMatrixSet", l.tileMatrixSet(), "pmtiles output needs WebMercatorQuad tiles");
    }
    String set = format.requiredTileMatrixSet();
    if (set != null && !tms.id().equals(set)) {
      throw new JobSpecException(
          path + ".tileMatrixSet",
          l.tileMatrixSet(),
          format.name() + " output needs " + set + " tiles");
    }
    String crs = format.requiredCrs();
    if (crs != null && !target.identity().equals(crs)) {
      throw new JobSpecException(
          path + ".targetCrs", l.targetCrs(), format.name() + " output needs " + crs);
    }
  }

  private static CrsRef crs(String spelling, String field) {
    CrsRef crs;
    try {
      crs = CrsRef.of(spelling);
    } catch (UnknownCrsException e) {
      throw new JobSpecException(field, spelling, "unknown CRS", e);
    }
    // Known before the first claim, not found by every worker's transform.
    String notHorizontal = CrsFacts.notHorizontal(crs);
    if (notHorizontal != null) {
      throw new JobSpecException(
          field,
          spelling,
          "is "
              + notHorizontal
              + ": tiles need a CRS of two horizontal coordinates, geographic or projected");
    }
    return crs;
  }
}
