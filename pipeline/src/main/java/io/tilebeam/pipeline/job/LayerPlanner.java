package io.tilebeam.pipeline.job;

import io.tilebeam.io.format.RasterFormat;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.format.VectorFormat;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.sink.ArchiveSpec;
import io.tilebeam.io.sink.OutputChecks;
import io.tilebeam.io.sink.OutputLocation;
import io.tilebeam.io.sink.PostGisTileSink;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.source.FeatureSource;
import io.tilebeam.io.source.LayerSource;
import io.tilebeam.io.source.RasterSource;
import io.tilebeam.io.source.SourceFieldException;
import io.tilebeam.io.source.SourceFormat;
import io.tilebeam.io.source.SourceFormats;
import io.tilebeam.io.source.SourceSpec;
import io.tilebeam.io.storage.Stores;
import io.tilebeam.pipeline.job.JobSpec.LayerSpec;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.raster.TileSettings;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.tiling.Extent;
import io.tilebeam.transforms.tiling.LayerCover;
import io.tilebeam.transforms.tiling.LayerTiling;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Resolves one layer of a job into its {@link LayerPlan}: the fields every layer has (matrix set,
 * CRSs, extents, output), then, by the kind of its source, a {@link VectorLayer} or a {@link
 * RasterLayer}. Every problem is a {@link JobSpecException} naming the field, raised before
 * anything is claimed or written.
 */
final class LayerPlanner {

  /** The encodings a PMTiles archive can hold: those its header has a tile type for. */
  private static final Set<String> ARCHIVED_TILES =
      Set.of("mvt", "png", "terrarium", "terrain-rgb");

  private final String namespace;
  private final Stores stores;
  private final List<String> warnings;

  /**
   * A planner for the layers of a job in {@code namespace}, reaching object stores through {@code
   * stores}; what a job asks for that it may not mean is added to {@code warnings}.
   */
  LayerPlanner(String namespace, Stores stores, List<String> warnings) {
    this.namespace = namespace;
    this.stores = stores;
    this.warnings = warnings;
  }

  /** What every layer has, resolved before its kind decides the rest. */
  private record Common(
      LayerSpec spec,
      String path,
      TileMatrixSet tms,
      CrsRef sourceCrs,
      CrsRef target,
      LayerTiling tiling,
      LayerCover cover,
      OutputLocation output) {}

  /**
   * The plan of layer {@code l}, found at {@code path} ({@code layers[i]}) in the job.
   *
   * @throws JobSpecException naming the field that cannot be used
   * @throws UncheckedIOException when a source that was found cannot be read now
   */
  LayerPlan plan(LayerSpec l, String path) {
    TileMatrixSet tms = SpatialFields.tileMatrixSet(l.tileMatrixSet(), path + ".tileMatrixSet");
    if (l.maxZoom() > tms.maxZoom()) {
      throw new JobSpecException(
          path + ".zooms",
          "[" + l.minZoom() + ", " + l.maxZoom() + "]",
          tms.id() + " defines zooms 0 to " + tms.maxZoom());
    }
    CrsRef target = SpatialFields.crs(l.targetCrs(), path + ".targetCrs");
    SourceFormat format = SourceFormats.named(l.sourceFormat()).orElseThrow();
    LayerSource source = source(format, l, path);
    warnSkippedColumns(l, source, path);
    CrsRef sourceCrs = SpatialFields.sourceCrs(l, format, source.declaredCrs(), path);
    List<Bounds> boxes = new ArrayList<>();
    List<Extent> extents = SpatialFields.extents(l, tms, path, warnings, boxes);
    OutputLocation output = outputLocation(l, path);
    LayerTiling tiling = new LayerTiling(l.name(), tms, extents, l.minZoom(), l.maxZoom());
    Common c = new Common(l, path, tms, sourceCrs, target, tiling, tiling.cover(boxes), output);
    // The one place a layer's kind is decided: by its source, whose format the parser asked for
    // parameters of the same kind.
    if (source instanceof RasterSource raster && l.params() instanceof RasterParams params) {
      return rasterLayer(c, raster, params);
    }
    if (source instanceof FeatureSource features && l.params() instanceof VectorParams params) {
      return vectorLayer(c, features, params);
    }
    throw new IllegalStateException(
        path + ": a " + l.sourceFormat() + " source with parameters of another kind");
  }

  private VectorLayer vectorLayer(Common c, FeatureSource source, VectorParams given) {
    TileFormat tiles = tileFormat(c, "mvt");
    if (tiles instanceof RasterFormat) {
      throw kindMismatch(c, tiles, " output needs a raster source", true);
    }
    VectorFormat format = (VectorFormat) tiles;
    VectorParams params = given.withDefaults(c.target(), format);
    RenderSpec render =
        new RenderSpec(
            c.tms(), c.target(), params.precision(), format == null ? 0 : format.gridExtent());
    CutSpec cut =
        new CutSpec(
            c.sourceCrs(),
            c.tms(),
            c.spec().minZoom(),
            c.spec().maxZoom(),
            params.bufferPixels(),
            params.simplifyPixels(),
            render.cutterGridDigits(),
            params.minSizePixels(),
            // Rounded onto a tile's grid, where the renderer unites folded pieces by winding: the
            // cutter need not make sources valid first.
            render.gridExtent() > 0 && render.cutterGridDigits() >= 0);
    ArchiveSpec archive = archive(c, tiles);
    return new VectorLayer(
        c.tiling(),
        c.cover(),
        template(c, source, tiles, params.keyJson()),
        new SourceSpec(source, cut),
        render,
        publishSpec(c, archive, tiles),
        archive);
  }

  private RasterLayer rasterLayer(Common c, RasterSource source, RasterParams given) {
    TileFormat tiles = tileFormat(c, "png");
    if (!(tiles instanceof RasterFormat format)) {
      throw kindMismatch(c, tiles, "a raster source needs a raster output (geotiff or png)", false);
    }
    TileSettings settings = given.settings(source, c.path());
    ArchiveSpec archive = archive(c, tiles);
    PublishSpec publish = publishSpec(c, archive, tiles);
    return new RasterLayer(
        c.tiling(),
        c.cover(),
        template(c, source, tiles, settings.keyJson()),
        source,
        RasterPlans.spec(
            c.spec(), c.path(), c.tms(), c.target(), c.sourceCrs(), source, format, settings),
        publish,
        archive);
  }

  /** The layer's output format is of the other kind than its source. */
  private static JobSpecException kindMismatch(
      Common c, TileFormat tiles, String why, boolean afterValue) {
    boolean archived = archived(c.spec());
    String field = c.path() + (archived ? ".output.tiles" : ".output.format");
    String value = archived ? tiles.name() : c.spec().outputFormat();
    return new JobSpecException(field, value, afterValue ? value + why : why);
  }

  /** The archive a layer is packed into, or null when its tiles are published one by one. */
  private ArchiveSpec archive(Common c, TileFormat tiles) {
    LayerSpec l = c.spec();
    return archived(l)
        ? new ArchiveSpec(c.output(), l.name(), tiles, l.minZoom(), l.maxZoom(), stores)
        : null;
  }

  private void warnSkippedColumns(LayerSpec l, LayerSource source, String path) {
    if (source.skippedColumns().isEmpty()) {
      return;
    }
    List<String> named = new ArrayList<>();
    source.skippedColumns().forEach((c, why) -> named.add(c + " (" + why + ")"));
    warnings.add(
        path
            + ".source.uri "
            + l.sourceUri()
            + ": columns not read as properties: "
            + String.join(", ", named));
  }

  /**
   * The layer's work with a placeholder tile: everything that decides its tiles' outputs. Its
   * output is the output format, and for an archive the tiles inside ({@code pmtiles/mvt}): a layer
   * moved into or out of an archive is staged elsewhere, so its tiles are made again.
   */
  private TileWork template(Common c, LayerSource source, TileFormat tiles, String params) {
    return new TileWork(
        namespace,
        Algorithm.VERSION,
        c.spec().name(),
        c.tms().identity(),
        TileId.of(0, 0, 0),
        source.identity(),
        c.sourceCrs().identity(),
        c.target().identity(),
        keyedOutput(c.spec(), tiles),
        params);
  }

  /**
   * The layer's source found, checked and identified by its format, before anything is claimed.
   *
   * @throws JobSpecException naming the source field that cannot be used
   * @throws UncheckedIOException when a source that was found cannot be read now: no fault of the
   *     job (exit 1, not 2)
   */
  private LayerSource source(SourceFormat format, LayerSpec l, String path) {
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

  /** The output format as the keys see it. */
  private static String keyedOutput(LayerSpec l, TileFormat tileFormat) {
    return archived(l) ? l.outputFormat() + "/" + tileFormat.name() : l.outputFormat();
  }

  /** Whether the layer is published as one PMTiles archive. */
  private static boolean archived(LayerSpec l) {
    return l.outputFormat().equals(ArchiveSpec.FORMAT);
  }

  /**
   * The layer's tile encoding (for an archive, the tiles inside: {@code output.tiles}, by default
   * {@code inside}), or null when it writes rows into a PostGIS table; checked against the matrix
   * set and CRS the format needs.
   */
  private static TileFormat tileFormat(Common c, String inside) {
    LayerSpec l = c.spec();
    if (l.outputFormat().equals("postgis")) {
      return null;
    }
    if (!archived(l)) {
      return checked(c, TileFormat.named(l.outputFormat()));
    }
    if (l.outputTiles() != null) {
      inside = l.outputTiles();
    }
    if (!ARCHIVED_TILES.contains(inside)) {
      throw new JobSpecException(
          c.path() + ".output.tiles",
          inside,
          "a pmtiles archive holds tiles of one of " + new TreeSet<>(ARCHIVED_TILES));
    }
    return checked(c, TileFormat.named(inside));
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
  private PublishSpec publishSpec(Common c, ArchiveSpec archive, TileFormat format) {
    LayerSpec l = c.spec();
    String path = c.path();
    CrsRef target = c.target();
    OutputLocation location = archive == null ? c.output() : archive.staging();
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

  /** What a tile format asks of the layer: vector tiles, for one, are Web Mercator tiles. */
  private static TileFormat checked(Common c, TileFormat format) {
    LayerSpec l = c.spec();
    String path = c.path();
    TileMatrixSet tms = c.tms();
    CrsRef target = c.target();
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
    return format;
  }
}
