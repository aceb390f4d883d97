package io.tilebeam.pipeline.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.sink.ArchiveSpec;
import io.tilebeam.io.source.JsonLimits;
import io.tilebeam.io.source.SourceFieldException;
import io.tilebeam.io.source.SourceFormat;
import io.tilebeam.io.source.SourceFormats;
import io.tilebeam.io.source.SourceOptions;
import io.tilebeam.pipeline.job.JobSpec.ExtentSpec;
import io.tilebeam.pipeline.job.JobSpec.LayerSpec;
import io.tilebeam.transforms.key.TileWork;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a job spec (YAML) and checks its form: every required field present, every value of the
 * right type and in range, no unknown fields. Each error names the field path and the value.
 */
public final class JobSpecParser {

  /** Output formats: every tile encoding, and rows in a PostGIS table. */
  static final Set<String> OUTPUT_FORMATS = outputFormats();

  /** What a source field means to the formats that do not take it. */
  private static final Map<String, String> FIELD_NOTES =
      Map.of("idColumn", " (GeoJSON ids are the id member)");

  /** Job parameters that change the bytes, with what they mean. */
  static final Set<String> PARAMS =
      Set.of("bufferPixels", "precision", "simplifyPixels", "minSizePixels");

  /** The parameters of a raster layer, which all change the pixels. */
  static final Set<String> RASTER_PARAMS =
      Set.of("resampling", "tileSize", "bands", "nodata", "outputNodata", "dataType");

  /** The largest job file read: thousands of layers and extents fit, a mistaken data file not. */
  static final long MAX_JOB_BYTES = 16L << 20;

  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,127}");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private JobSpecParser() {}

  /**
   * Reads and checks a job file.
   *
   * @throws JobSpecException when the file is missing, not YAML, or a field is wrong
   */
  public static JobSpec parse(Path file) {
    return parse(read(file));
  }

  /**
   * {@code e}, raised while resolving the job read from {@code file}, placed on the line of its
   * field in the file (the file is read again: this is the error path).
   */
  public static JobSpecException placeInFile(JobSpecException e, Path file) {
    try {
      return e.placed(JobYaml.check(read(file)));
    } catch (JobSpecException changed) {
      return e; // the file changed or vanished since it was read: the message stands without a line
    }
  }

  private static String read(Path file) {
    if (Files.isDirectory(file)) {
      throw new JobSpecException("--job", file, "is a directory, not a job file");
    }
    try {
      long size = Files.size(file);
      if (size > MAX_JOB_BYTES) {
        throw new JobSpecException(
            "--job",
            file,
            "is "
                + size
                + " bytes, more than the "
                + (MAX_JOB_BYTES >> 20)
                + " MiB a job file may hold (is it the job file?)");
      }
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new JobSpecException("--job", file, "no such file");
    } catch (CharacterCodingException e) {
      throw new JobSpecException(
          "--job", file, "is not UTF-8 text: a job file is YAML (is it a binary file?)", e);
    } catch (IOException e) {
      throw new JobSpecException("--job", file, "cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Reads and checks a job from YAML text.
   *
   * @throws JobSpecException when the text is not YAML or a field is wrong
   */
  public static JobSpec parse(String yaml) {
    JobYaml.Lines lines = JobYaml.check(yaml);
    try {
      return parseTree(yaml);
    } catch (JobSpecException e) {
      throw e.placed(lines);
    }
  }

  private static JobSpec parseTree(String yaml) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw new JobSpecException(
          "job", firstLine(yaml), "not valid YAML: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new JobSpecException("job", firstLine(yaml), "must be a YAML mapping");
    }
    allowOnly(root, "", Set.of("namespace", "layers"));
    String namespace = text(root, "namespace", "namespace");
    if (!NAMESPACE.matcher(namespace).matches()) {
      throw new JobSpecException("namespace", namespace, "must match " + NAMESPACE.pattern());
    }
    JsonNode layers = root.get("layers");
    if (layers == null || !layers.isArray() || layers.isEmpty()) {
      throw new JobSpecException("layers", layers, "must be a non-empty list");
    }
    List<LayerSpec> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < layers.size(); i++) {
      LayerSpec layer = layer(layers.get(i), "layers[" + i + "]");
      if (!names.add(layer.name())) {
        throw new JobSpecException("layers[" + i + "].name", layer.name(), "is used by two layers");
      }
      out.add(layer);
    }
    return new JobSpec(namespace, out);
  }

  private static LayerSpec layer(JsonNode node, String path) {
    if (!node.isObject()) {
      throw new JobSpecException(path, node, "must be a mapping");
    }
    allowOnly(
        node,
        path + ".",
        Set.of(
            "name",
            "source",
            "extents",
            "tileMatrixSet",
            "zooms",
            "targetCrs",
            "output",
            "params"));
    String name = text(node, "name", path + ".name");
    if (!TileWork.LAYER_NAME.matcher(name).matches()) {
      throw new JobSpecException(
          path + ".name", name, "must match " + TileWork.LAYER_NAME.pattern());
    }
    if (name.startsWith("_")) {
      // Beside the layers, an output holds `_failed/` (dead letters), `_tmp/` (temporary objects,
      // which `reap` deletes) and `_staging/` (archived layers' tiles): a layer must never be
      // mistaken for any of them.
      throw new JobSpecException(
          path + ".name",
          name,
          "must not start with '_' (reserved for _failed, _tmp and _staging)");
    }
    JsonNode source = object(node, "source", path + ".source");
    allowOnly(source, path + ".source.", sourceFields());
    SourceFormat sourceFormat = sourceFormat(source, path + ".source.format");
    SourceOptions options = sourceOptions(source, sourceFormat, path + ".source");
    JsonNode output = object(node, "output", path + ".output");
    allowOnly(output, path + ".output.", Set.of("uri", "format", "table", "tiles"));
    String outputFormat = choice(output, "format", path + ".output.format", OUTPUT_FORMATS);
    String outputTiles = optionalText(output, "tiles", path + ".output.tiles");
    if (outputTiles != null && !outputFormat.equals(ArchiveSpec.FORMAT)) {
      throw new JobSpecException(
          path + ".output.tiles",
          outputTiles,
          "names the tiles inside a pmtiles archive; output.format is " + outputFormat);
    }
    int[] zooms = zooms(node.get("zooms"), path + ".zooms");
    List<String> uris = sourceUris(source, sourceFormat, path + ".source.uri");
    return new LayerSpec(
        name,
        String.join(", ", uris),
        uris,
        sourceFormat.name(),
        optionalText(source, "crs", path + ".source.crs"),
        options,
        extents(node.get("extents"), path + ".extents"),
        text(node, "tileMatrixSet", path + ".tileMatrixSet"),
        zooms[0],
        zooms[1],
        text(node, "targetCrs", path + ".targetCrs"),
        text(output, "uri", path + ".output.uri"),
        outputFormat,
        optionalText(output, "table", path + ".output.table"),
        outputTiles,
        sourceFormat.raster()
            ? RasterParamsParser.parse(node.get("params"), path + ".params")
            : VectorParamsParser.parse(node.get("params"), path + ".params"));
  }

  /**
   * The source's location: one string, or for a raster format a list of them (a mosaic, the first
   * listed winning where they overlap).
   */
  private static List<String> sourceUris(JsonNode source, SourceFormat format, String path) {
    JsonNode v = source.get("uri");
    if (v == null || !v.isArray()) {
      return List.of(text(source, "uri", path));
    }
    if (!format.raster()) {
      throw new JobSpecException(
          path, v, "a list of sources is read only by raster formats (a mosaic of GeoTIFFs)");
    }
    if (v.isEmpty()) {
      throw new JobSpecException(path, v, "must list at least one source");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      JsonNode u = v.get(i);
      if (!u.isTextual() || u.asText().isBlank()) {
        throw new JobSpecException(path + "[" + i + "]", u, "must be a non-empty string");
      }
      out.add(u.asText().trim());
    }
    return out;
  }

  private static Set<String> outputFormats() {
    Set<String> all = new LinkedHashSet<>();
    TileFormat.all().forEach(f -> all.add(f.name()));
    all.add("postgis");
    all.add(ArchiveSpec.FORMAT);
    return Set.copyOf(all);
  }

  /** Every field a source may have: its location, format and CRS, and what some formats take. */
  private static Set<String> sourceFields() {
    Set<String> all = new LinkedHashSet<>(List.of("uri", "format", "crs"));
    all.addAll(SourceFormats.fields());
    return all;
  }

  private static SourceFormat sourceFormat(JsonNode source, String path) {
    String name = text(source, "format", path);
    return SourceFormats.named(name)
        .orElseThrow(
            () ->
                new JobSpecException(
                    path, name, "unknown format (known: " + SourceFormats.names() + ")"));
  }

  /** The format-specific source fields, each allowed only where it means something. */
  private static SourceOptions sourceOptions(JsonNode source, SourceFormat format, String path) {
    for (String field : SourceFormats.fields()) {
      if (source.has(field) && !format.fields().contains(field)) {
        List<String> taking = SourceFormats.taking(field);
        throw new JobSpecException(
            path + "." + field,
            source.get(field),
            "is only used with source format"
                + (taking.size() > 1 ? "s " : " ")
                + String.join(" and ", taking)
                + FIELD_NOTES.getOrDefault(field, ""));
      }
    }
    SourceOptions options =
        new SourceOptions(
            optionalText(source, "idColumn", path + ".idColumn"),
            optionalText(source, "table", path + ".table"),
            optionalText(source, "query", path + ".query"),
            optionalText(source, "geometryColumn", path + ".geometryColumn"),
            optionalText(source, "version", path + ".version"),
            optionalText(source, "versionQuery", path + ".versionQuery"),
            limits(source.get("limits"), format, path + ".limits"));
    try {
      format.checkFields(options);
    } catch (SourceFieldException e) {
      throw new JobSpecException(path + "." + e.field(), e.value(), e.getMessage(), e);
    }
    return options;
  }

  /**
   * The reading limits a GeoJSON or GeoJSONSeq source sets ({@code maxStringChars}, {@code
   * maxNesting}, and for GeoJSONSeq {@code maxRecordBytes}), the defaults filling the rest; null
   * when the job sets none.
   */
  private static JsonLimits limits(JsonNode node, SourceFormat format, String path) {
    if (node == null) {
      return null;
    }
    if (!node.isObject()) {
      throw new JobSpecException(path, node, "must be a mapping");
    }
    allowOnly(node, path + ".", format.limitFields());
    JsonLimits d = JsonLimits.DEFAULT;
    int[] values = {d.maxStringChars(), d.maxNesting(), d.maxRecordBytes()};
    String[] names = {"maxStringChars", "maxNesting", "maxRecordBytes"};
    for (int k = 0; k < names.length; k++) {
      JsonNode v = node.get(names[k]);
      if (v == null) {
        continue;
      }
      if (!v.canConvertToInt() || !v.isIntegralNumber()) {
        throw new JobSpecException(path + "." + names[k], v, "must be a whole number");
      }
      values[k] = v.intValue();
    }
    try {
      return new JsonLimits(values[0], values[1], values[2]);
    } catch (SourceFieldException e) {
      throw new JobSpecException(path + "." + e.field(), node.get(e.field()), e.getMessage());
    }
  }

  private static List<ExtentSpec> extents(JsonNode node, String path) {
    if (node == null || !node.isArray() || node.isEmpty()) {
      throw new JobSpecException(path, node, "must be a non-empty list of {bbox, crs}");
    }
    List<ExtentSpec> out = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      String at = path + "[" + i + "]";
      JsonNode e = node.get(i);
      if (!e.isObject()) {
        throw new JobSpecException(at, e, "must be a mapping with a bbox");
      }
      allowOnly(e, at + ".", Set.of("bbox", "crs"));
      JsonNode bbox = e.get("bbox");
      if (bbox == null || !bbox.isArray() || bbox.size() != 4) {
        throw new JobSpecException(at + ".bbox", bbox, "must be [west, south, east, north]");
      }
      double[] values = new double[4];
      for (int k = 0; k < 4; k++) {
        if (!bbox.get(k).isNumber() || !Double.isFinite(bbox.get(k).doubleValue())) {
          throw new JobSpecException(at + ".bbox", bbox, "value " + k + " is not a finite number");
        }
        values[k] = bbox.get(k).doubleValue();
      }
      if (values[1] > values[3]) {
        throw new JobSpecException(
            at + ".bbox", bbox, "south " + values[1] + " is greater than north " + values[3]);
      }
      String crs = optionalText(e, "crs", at + ".crs");
      out.add(new ExtentSpec(values, crs == null ? "EPSG:4326" : crs));
    }
    return out;
  }

  private static int[] zooms(JsonNode node, String path) {
    if (node == null
        || !node.isArray()
        || node.size() != 2
        || !node.get(0).canConvertToInt()
        || !node.get(1).canConvertToInt()
        || !node.get(0).isIntegralNumber()
        || !node.get(1).isIntegralNumber()) {
      throw new JobSpecException(path, node, "must be [min, max], two whole numbers");
    }
    int min = node.get(0).intValue();
    int max = node.get(1).intValue();
    if (min < 0) {
      throw new JobSpecException(path, node, "zooms cannot be negative");
    }
    if (min > max) {
      throw new JobSpecException(path, node, "the range is reversed: " + min + " > " + max);
    }
    return new int[] {min, max};
  }

  /**
   * A layer's {@code params} as a mapping of {@code known} names only ({@code kind} names them in
   * the message), or null when the job gives none.
   *
   * @throws JobSpecException naming a parameter that is not known, or params that are no mapping
   */
  static JsonNode paramsMapping(JsonNode node, String path, Set<String> known, String kind) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw new JobSpecException(path, node, "must be a mapping");
    }
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!known.contains(name)) {
        throw new JobSpecException(
            path + "." + name,
            node.get(name),
            "unknown " + kind + " (known: " + sorted(known) + ")");
      }
    }
    return node;
  }

  private static String choice(JsonNode node, String field, String path, Set<String> known) {
    String value = text(node, field, path);
    if (!known.contains(value)) {
      throw new JobSpecException(path, value, "unknown format (known: " + sorted(known) + ")");
    }
    return value;
  }

  private static JsonNode object(JsonNode node, String field, String path) {
    JsonNode v = node.get(field);
    if (v == null || !v.isObject()) {
      throw new JobSpecException(path, v, "must be a mapping");
    }
    return v;
  }

  private static String text(JsonNode node, String field, String path) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      throw new JobSpecException(path, null, "is required");
    }
    if (!v.isTextual() || v.asText().isBlank()) {
      throw new JobSpecException(path, v, "must be a non-empty string");
    }
    return v.asText().trim();
  }

  private static String optionalText(JsonNode node, String field, String path) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : text(node, field, path);
  }

  private static void allowOnly(JsonNode node, String prefix, Set<String> allowed) {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw new JobSpecException(
            prefix + name, node.get(name), "unknown field (allowed: " + sorted(allowed) + ")");
      }
    }
  }

  private static List<String> sorted(Set<String> values) {
    return values.stream().sorted().toList();
  }

  private static String firstLine(String text) {
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
