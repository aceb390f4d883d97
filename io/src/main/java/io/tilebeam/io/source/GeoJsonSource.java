package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.transforms.feature.Feature;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Streams the features of a GeoJSON FeatureCollection one at a time, so a file larger than memory
 * can be read. Feature ids come from the {@code id} member, or else are a digest of the feature's
 * geometry and properties, so the same feature always has the same id.
 */
public final class GeoJsonSource {

  private final SourceFile file;
  private final String path;
  private final JsonLimits limits;
  private final ObjectMapper mapper;
  private final JsonFactory factory;
  private long ringsClosed;

  /** A source reading a local file. */
  public GeoJsonSource(Path path) {
    this(new SourceFile.Local(path.toString()));
  }

  /** A source reading {@code file} under the default limits. */
  public GeoJsonSource(SourceFile file) {
    this(file, JsonLimits.DEFAULT);
  }

  /** A source reading {@code file}, each feature under {@code limits}. */
  public GeoJsonSource(SourceFile file, JsonLimits limits) {
    this.file = file;
    this.path = file.describe();
    this.limits = limits;
    this.mapper = limits.mapper();
    this.factory = mapper.getFactory();
  }

  /**
   * The CRS the file declares with the GeoJSON 2008 {@code crs} member, if any.
   *
   * @throws SourceFormatException when the file is not JSON
   */
  public Optional<String> declaredCrs() throws IOException {
    try (InputStream in = new BufferedInputStream(file.open(0), 1 << 16);
        JsonParser p = factory.createParser(in)) {
      expect(p, p.nextToken(), JsonToken.START_OBJECT);
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String name = p.currentName();
        p.nextToken();
        if (name.equals("crs")) {
          JsonNode crs = mapper.readTree(p);
          String named = crs.path("properties").path("name").asText(null);
          return Optional.ofNullable(named);
        }
        p.skipChildren();
      }
      return Optional.empty();
    } catch (JsonProcessingException e) {
      throw corrupt(e, 0);
    }
  }

  /**
   * Calls {@code action} for every usable feature and {@code bad} for every feature that cannot be
   * used (a malformed geometry, a non-finite coordinate, properties that are not an object, a
   * feature past a reading limit: see {@link JsonLimits}), in file order. A bad feature costs only
   * itself.
   *
   * @throws SourceFormatException when the file is not a FeatureCollection or not JSON at all; the
   *     message gives the line, column and byte offset
   */
  public void forEach(Consumer<Feature> action, Consumer<BadFeature> bad) throws IOException {
    GeoJsonFeatures features = new GeoJsonFeatures();
    long skip;
    try (InputStream in = new BufferedInputStream(file.open(0), 1 << 16);
        JsonParser p = factory.createParser(in)) {
      expect(p, p.nextToken(), JsonToken.START_OBJECT);
      skip = -1;
      boolean sawFeatures = false;
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (!name.equals("features")) {
          p.skipChildren();
          continue;
        }
        sawFeatures = true;
        expect(p, value, JsonToken.START_ARRAY);
        skip = readArray(p, 0, features, action, bad);
        if (skip >= 0) {
          break; // the rest of the array is read from past the feature that broke a limit
        }
      }
      if (!sawFeatures) {
        throw new SourceFormatException(
            path + ": not a GeoJSON FeatureCollection (no 'features')", null);
      }
    } catch (JsonProcessingException e) {
      throw corrupt(e, 0);
    }
    while (skip >= 0) {
      skip = resumeAfter(skip, features, action, bad);
    }
    ringsClosed = features.ringsClosed();
  }

  /**
   * Reads the features array from the parser's position to its end. Returns -1 at the end, or the
   * byte offset of a feature that broke a reading limit: the parser cannot go on past it (it
   * stopped inside a token), so the caller resumes after it from a new one.
   *
   * @param base the file offset of the parser's first byte
   */
  private long readArray(
      JsonParser p,
      long base,
      GeoJsonFeatures features,
      Consumer<Feature> action,
      Consumer<BadFeature> bad)
      throws IOException {
    for (JsonToken f = p.nextToken(); f != JsonToken.END_ARRAY; f = p.nextToken()) {
      if (f == null) {
        throw new SourceFormatException(path + ": the features array is not closed", null);
      }
      JsonLocation at = p.currentTokenLocation();
      JsonNode node;
      try {
        node = mapper.readTree(p);
      } catch (StreamConstraintsException e) {
        long offset = base + at.getByteOffset();
        bad.accept(new BadFeature("feature at byte " + offset, limits.broken(e)));
        return offset;
      }
      Feature feature;
      try {
        feature = features.toFeature(node);
      } catch (IllegalArgumentException e) {
        bad.accept(new BadFeature(idOrPlace(node, at, base), e.getMessage()));
        continue;
      }
      action.accept(feature);
    }
    return -1;
  }

  /**
   * Reads the rest of the features array after the value that starts at byte {@code offset}: its
   * end is found by a scan that holds none of its bytes, and a new parser starts there, as if at
   * the start of an array ({@code [null}, then the file's bytes from the value's end).
   */
  private long resumeAfter(
      long offset, GeoJsonFeatures features, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException {
    long end;
    try (InputStream in = new BufferedInputStream(file.open(offset), 1 << 16)) {
      end = offset + JsonLimits.valueLength(in);
    }
    if (end < 0) {
      throw new SourceFormatException(
          path + ": the feature at byte " + offset + " is not closed before the file ends", null);
    }
    byte[] prefix = "[null".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    long base = end - prefix.length;
    try (InputStream in =
            new SequenceInputStream(
                new ByteArrayInputStream(prefix),
                new BufferedInputStream(file.open(end), 1 << 16));
        JsonParser p = factory.createParser(in)) {
      p.nextToken(); // [
      p.nextToken(); // null
      return readArray(p, base, features, action, bad);
    } catch (JsonProcessingException e) {
      throw corrupt(e, base);
    }
  }

  /** Unclosed polygon rings the last {@link #forEach} closed. */
  public long ringsClosed() {
    return ringsClosed;
  }

  /**
   * A bad feature's own id when it has one, else where it starts in the file (its line and column
   * too when the parser read the file from its start).
   */
  private String idOrPlace(JsonNode node, JsonLocation at, long base) {
    String id = GeoJsonFeatures.ownId(node);
    if (id != null) {
      return id;
    }
    return "feature at " + where(at, base);
  }

  private void expect(JsonParser p, JsonToken actual, JsonToken expected) {
    if (actual != expected) {
      throw new SourceFormatException(
          path
              + ": expected "
              + expected
              + " at "
              + describe(p.currentTokenLocation())
              + ", found "
              + actual,
          null);
    }
  }

  private SourceFormatException corrupt(JsonProcessingException e, long base) {
    JsonLocation at = e.getLocation();
    String where = where(at, base);
    return new SourceFormatException(
        path
            + ": corrupt JSON"
            + (where == null ? "" : " at " + where)
            + ": "
            + e.getOriginalMessage(),
        e);
  }

  /**
   * Where a token a parser over the file from byte {@code base} saw is: its line and column too
   * when that parser read the file from its start, else its byte; null when the parser does not
   * know.
   */
  private static String where(JsonLocation at, long base) {
    return base == 0 || at == null ? describe(at) : "byte " + (base + at.getByteOffset());
  }

  /** Where a token is: line, column and byte, each only when the parser knows it; else null. */
  private static String describe(JsonLocation at) {
    if (at == null || (at.getLineNr() < 1 && at.getByteOffset() < 0)) {
      return null;
    }
    StringBuilder s = new StringBuilder("line ").append(at.getLineNr());
    if (at.getColumnNr() > 0) {
      s.append(", column ").append(at.getColumnNr());
    }
    if (at.getByteOffset() >= 0) {
      s.append(" (byte ").append(at.getByteOffset()).append(')');
    }
    return s.toString();
  }
}
