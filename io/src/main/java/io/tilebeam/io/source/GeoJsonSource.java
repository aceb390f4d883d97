package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.transforms.feature.Feature;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Streams the features of a GeoJSON FeatureCollection one at a time, so a file larger than memory
 * can be read. Feature ids come from the {@code id} member, or else are a digest of the feature's
 * geometry and properties, so the same feature always has the same id.
 */
public final class GeoJsonSource {

  private static final ObjectMapper MAPPER = GeoJsonFeatures.MAPPER;
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private final SourceFile file;
  private final String path;
  private long ringsClosed;

  /** A source reading a local file. */
  public GeoJsonSource(Path path) {
    this(new SourceFile.Local(path.toString()));
  }

  /** A source reading {@code file}. */
  public GeoJsonSource(SourceFile file) {
    this.file = file;
    this.path = file.describe();
  }

  /**
   * The CRS the file declares with the GeoJSON 2008 {@code crs} member, if any.
   *
   * @throws SourceFormatException when the file is not JSON
   */
  public Optional<String> declaredCrs() throws IOException {
    try (InputStream in = new BufferedInputStream(file.open(0), 1 << 16);
        JsonParser p = FACTORY.createParser(in)) {
      expect(p, p.nextToken(), JsonToken.START_OBJECT);
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String name = p.currentName();
        p.nextToken();
        if (name.equals("crs")) {
          JsonNode crs = MAPPER.readTree(p);
          String named = crs.path("properties").path("name").asText(null);
          return Optional.ofNullable(named);
        }
        p.skipChildren();
      }
      return Optional.empty();
    } catch (JsonProcessingException e) {
      throw corrupt(e);
    }
  }

  /** A feature that cannot be used: where it is (its id, or its place in the file) and why. */
  public record BadFeature(String featureId, String reason) {}

  /**
   * Calls {@code action} for every usable feature and {@code bad} for every feature that cannot be
   * used (a malformed geometry, a non-finite coordinate, properties that are not an object), in
   * file order. A bad feature costs only itself.
   *
   * @throws SourceFormatException when the file is not a FeatureCollection or not JSON at all; the
   *     message gives the line, column and byte offset
   */
  public void forEach(Consumer<Feature> action, Consumer<BadFeature> bad) throws IOException {
    GeoJsonFeatures features = new GeoJsonFeatures();
    try (InputStream in = new BufferedInputStream(file.open(0), 1 << 16);
        JsonParser p = FACTORY.createParser(in)) {
      expect(p, p.nextToken(), JsonToken.START_OBJECT);
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
        for (JsonToken f = p.nextToken(); f != JsonToken.END_ARRAY; f = p.nextToken()) {
          JsonLocation at = p.currentTokenLocation();
          JsonNode node = MAPPER.readTree(p);
          Feature feature;
          try {
            feature = features.toFeature(node);
          } catch (IllegalArgumentException e) {
            bad.accept(new BadFeature(idOrPlace(node, at), e.getMessage()));
            continue;
          }
          action.accept(feature);
        }
      }
      if (!sawFeatures) {
        throw new SourceFormatException(
            path + ": not a GeoJSON FeatureCollection (no 'features')", null);
      }
    } catch (JsonProcessingException e) {
      throw corrupt(e);
    }
    ringsClosed = features.ringsClosed();
  }

  /** Unclosed polygon rings the last {@link #forEach} closed. */
  public long ringsClosed() {
    return ringsClosed;
  }

  /** A bad feature's own id when it has one, else where it starts in the file. */
  private String idOrPlace(JsonNode node, JsonLocation at) {
    String id = GeoJsonFeatures.ownId(node);
    return id != null ? id : "feature at " + describe(at);
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

  private SourceFormatException corrupt(JsonProcessingException e) {
    return new SourceFormatException(
        path + ": corrupt JSON at " + describe(e.getLocation()) + ": " + e.getOriginalMessage(), e);
  }

  private static String describe(JsonLocation at) {
    if (at == null) {
      return "an unknown position";
    }
    return "line "
        + at.getLineNr()
        + ", column "
        + at.getColumnNr()
        + " (byte "
        + at.getByteOffset()
        + ")";
  }
}
