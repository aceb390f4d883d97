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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
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

  /** What a parser that resumes inside the features array is given before the file's bytes. */
  private static final byte[] RESUME = "[null".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

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
   * The CRS the file declares with the GeoJSON 2008 {@code crs} member, if any. The member may
   * follow the features array, which is most of the file: that is passed over by a scan of its
   * brackets and strings alone ({@link JsonLimits#valueLength}), not parsed, since the scan for
   * parts ({@link #parts}) reads it strictly before any feature is used. (Parsed here too, planning
   * parsed the whole file once more than the job needs.)
   *
   * @throws SourceFormatException when the file is not JSON, or its features array is not closed
   */
  public Optional<String> declaredCrs() throws IOException {
    long features;
    try (InputStream in = new BufferedInputStream(file.open(0), 1 << 16);
        JsonParser p = factory.createParser(in)) {
      expect(p, p.nextToken(), JsonToken.START_OBJECT);
      Members members = crsAmong(p, true);
      if (members.crs != null || members.featuresAt < 0) {
        return Optional.ofNullable(members.crs);
      }
      features = members.featuresAt;
    } catch (JsonProcessingException e) {
      throw corrupt(e, 0);
    }
    long end = features + valueLengthAt(features, "the features array");
    try (JsonParser p = parser(MEMBERS_RESUME, end, -1)) {
      p.nextToken(); // {
      p.nextToken(); // the stand-in member's name
      p.nextToken(); // and its value
      return Optional.ofNullable(crsAmong(p, false).crs);
    } catch (JsonProcessingException e) {
      throw corrupt(e, end - MEMBERS_RESUME.length);
    }
  }

  /**
   * What a parser that resumes among the top-level members after the features array is given before
   * the file's bytes: an object opened and a member, as if the array were that member.
   */
  private static final byte[] MEMBERS_RESUME =
      "{\"\":null".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * The CRS named by a {@code crs} member, and where the features array starts when the scan
   * stopped there ({@code featuresAt}, else -1).
   */
  private record Members(String crs, long featuresAt) {}

  /**
   * Reads the object's members from the parser's position up to a {@code crs} member; with {@code
   * stopAtFeatures}, stops at a features array whose byte offset the parser knows instead of
   * parsing it (a file that is not UTF-8 has none, and is parsed through).
   */
  private Members crsAmong(JsonParser p, boolean stopAtFeatures) throws IOException {
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (name.equals("crs")) {
        JsonNode crs = mapper.readTree(p);
        return new Members(crs.path("properties").path("name").asText(null), -1);
      }
      long at = p.currentTokenLocation().getByteOffset();
      if (stopAtFeatures && name.equals("features") && value == JsonToken.START_ARRAY && at >= 0) {
        return new Members(null, at);
      }
      p.skipChildren();
    }
    return new Members(null, -1);
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
    long skip = -1;
    try (InputStream in = new BufferedInputStream(file.open(0), 1 << 16);
        JsonParser p = factory.createParser(in)) {
      atFeatures(p);
      skip = readArray(p, 0, features, action, bad);
      if (skip < 0) {
        rest(p);
      } // else the rest of the array is read from past the feature that broke a limit
    } catch (JsonProcessingException e) {
      throw corrupt(e, 0);
    }
    while (skip >= 0) {
      skip = resumeAfter(skip, -1, features, action, bad);
    }
    ringsClosed = features.ringsClosed();
  }

  /**
   * Walks the FeatureCollection's members to its {@code features} array, leaving the parser at its
   * {@code [}.
   *
   * @throws SourceFormatException when the file is not a FeatureCollection
   */
  private void atFeatures(JsonParser p) throws IOException {
    expect(p, p.nextToken(), JsonToken.START_OBJECT);
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (name.equals("features")) {
        expect(p, value, JsonToken.START_ARRAY);
        return;
      }
      p.skipChildren();
    }
    throw new SourceFormatException(
        path + ": not a GeoJSON FeatureCollection (no 'features')", null);
  }

  /** Reads the members after the features array, so that a corrupt end is found. */
  private static void rest(JsonParser p) throws IOException {
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      p.nextToken();
      p.skipChildren();
    }
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
      long offset = base + at.getByteOffset();
      Feature feature = null;
      JsonNode node = null;
      try {
        // The fast way needs the feature's byte offset to read a fault again: a file that is not
        // UTF-8 has none (its parser counts characters), and its features are read as trees.
        if (f == JsonToken.START_OBJECT && at.getByteOffset() >= 0) {
          feature = features.read(p, mapper);
          if (feature == null) {
            // Not for the fast way (a fault, a GeometryCollection): read again as a tree.
            node = treeAt(offset);
          }
        } else {
          node = mapper.readTree(p);
        }
      } catch (StreamConstraintsException e) {
        if (at.getByteOffset() < 0) {
          // Reading goes on past such a feature by its byte offset; without one, it cannot.
          throw new SourceFormatException(
              path + ": " + limits.broken(e) + ", in a file that is not UTF-8 (RFC 7946)", e);
        }
        bad.accept(new BadFeature("feature at byte " + offset, limits.broken(e)));
        return offset;
      }
      if (feature == null) {
        try {
          feature = features.toFeature(node);
        } catch (IllegalArgumentException e) {
          bad.accept(new BadFeature(idOrPlace(node, at, base), e.getMessage()));
          continue;
        }
      }
      action.accept(feature);
    }
    return -1;
  }

  /**
   * Checks that a part's parser, at the end of its array, has nothing after it: a bracket of the
   * part's own that closed the array early (brackets that do not match) is corrupt JSON.
   */
  private void requireEnd(JsonParser p, long base) throws IOException {
    if (p.nextToken() != null) {
      throw new SourceFormatException(
          path
              + ": corrupt JSON at "
              + where(p.currentTokenLocation(), base)
              + ": the features array closes before the end of its part",
          null);
    }
  }

  /** The JSON value that starts at byte {@code offset}, as a tree, under the source's limits. */
  private JsonNode treeAt(long offset) throws IOException {
    try (JsonParser q = factory.createParser(new BufferedInputStream(file.open(offset), 1 << 16))) {
      return mapper.readTree(q);
    }
  }

  /**
   * Reads the rest of the features array after the value that starts at byte {@code offset}, up to
   * the array's end or, in a part, to byte {@code stop} (negative: the file's end).
   */
  private long resumeAfter(
      long offset,
      long stop,
      GeoJsonFeatures features,
      Consumer<Feature> action,
      Consumer<BadFeature> bad)
      throws IOException {
    long end = endOfValue(offset);
    try (JsonParser p = parserAfter(end, stop)) {
      long next = readArray(p, end - RESUME.length, features, action, bad);
      if (next < 0 && stop >= 0) {
        requireEnd(p, end - RESUME.length);
      }
      return next;
    } catch (JsonProcessingException e) {
      throw corrupt(e, end - RESUME.length);
    }
  }

  /**
   * The end of the value that starts at byte {@code offset}, found by a scan that holds none of its
   * bytes.
   */
  private long endOfValue(long offset) throws IOException {
    return offset + valueLengthAt(offset, "the feature");
  }

  /**
   * The length of the value that starts at byte {@code offset}, {@code what} it is to the message
   * when it is not closed before the file ends.
   */
  private long valueLengthAt(long offset, String what) throws IOException {
    long length;
    try (InputStream in = file.open(offset)) {
      length = JsonLimits.valueLength(in);
    }
    if (length < 0) {
      throw new SourceFormatException(
          path + ": " + what + " at byte " + offset + " is not closed before the file ends", null);
    }
    return length;
  }

  /**
   * A parser past the first two tokens of {@code [null}, then the file's bytes from {@code from}:
   * as if at the start of an array, at the element after a value that ends at {@code from}. With a
   * {@code stop}, the bytes end there and the array is closed after them.
   */
  private JsonParser parserAfter(long from, long stop) throws IOException {
    JsonParser p = parser(RESUME, from, stop);
    p.nextToken(); // [
    p.nextToken(); // null
    return p;
  }

  /**
   * A parser over {@code prefix}, then the file's bytes from {@code from} to {@code stop} and a
   * closing {@code ]} (negative {@code stop}: to the file's end, as they are). A part ends before
   * the comma after its last feature, so its bytes in brackets are a JSON array, parsed strictly.
   */
  private JsonParser parser(byte[] prefix, long from, long stop) throws IOException {
    InputStream bytes = new BufferedInputStream(file.open(from), 1 << 16);
    if (stop >= 0) {
      bytes =
          new SequenceInputStream(
              new Bounded(bytes, stop - from), new ByteArrayInputStream(new byte[] {']'}));
    }
    return factory.createParser(new SequenceInputStream(new ByteArrayInputStream(prefix), bytes));
  }

  /**
   * Cuts the features array into parts of about {@code partBytes} bytes, at features' starts, for
   * {@link #forEach(GeoJsonSeqSource.Range, Consumer, Consumer)} to read each on its own (on
   * another worker): a part runs from the start of its first feature to the comma after its last
   * (or the array's end). A feature larger than {@code partBytes} is a part of its own. The members
   * around the array are parsed here; the array itself is passed over by a scan of its brackets,
   * strings and commas ({@link FeatureArrayScan}), and each part's reader parses its bytes
   * strictly: corrupt JSON inside a feature is found by the part that holds it, before any tile of
   * the layer is written (every claimed tile of the layer then fails with the place).
   *
   * @return false, having passed nothing, for a file that is not UTF-8 (RFC 7946 asks for it; the
   *     parser of another encoding counts characters, not bytes, so no part could be placed): it is
   *     read whole instead
   * @throws SourceFormatException when the file is not a FeatureCollection, the JSON around the
   *     features array is corrupt, a comma in the array stands where a feature should, or the array
   *     is not closed
   */
  public boolean parts(long partBytes, Consumer<GeoJsonSeqSource.Range> part) throws IOException {
    // One read of the file from its start, as one ranged request on GCS or S3: the members before
    // the array are parsed, the array scanned, the members after it parsed, all from one stream.
    try (InputStream in = new BufferedInputStream(file.open(0), 1 << 16)) {
      long arrayAt;
      PushbackInputStream rest = new PushbackInputStream(in, FeatureArrayScan.BLOCK);
      try (JsonParser p = factory.createParser(in)) {
        p.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
        atFeatures(p);
        arrayAt = p.currentTokenLocation().getByteOffset();
        if (arrayAt < 0) {
          return false;
        }
        // The parser has read past the array's [ into its own buffer: that comes first.
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        p.releaseBuffered(read);
        rest.unread(read.toByteArray());
        rest.unread('[');
      } catch (JsonProcessingException e) {
        throw corrupt(e, 0);
      }
      long end = FeatureArrayScan.scan(rest, arrayAt, path, new Parts(partBytes, part));
      // The members after the array, parsed as a parser that had read the array would have.
      try (JsonParser p =
          factory.createParser(
              new SequenceInputStream(new ByteArrayInputStream(MEMBERS_RESUME), rest))) {
        p.nextToken(); // {
        p.nextToken(); // the stand-in member's name
        p.nextToken(); // and its value
        rest(p);
      } catch (JsonProcessingException e) {
        throw corrupt(e, end - MEMBERS_RESUME.length);
      }
    }
    return true;
  }

  /**
   * Reads the features of one part made by {@link #parts}: every usable feature to {@code action},
   * every bad one to {@code bad}, as {@link #forEach(Consumer, Consumer)} does for the whole file.
   *
   * @throws SourceFormatException when the part's bytes are not JSON features (the file changed
   *     since it was cut)
   */
  public void forEach(
      GeoJsonSeqSource.Range part, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException {
    GeoJsonFeatures features = new GeoJsonFeatures();
    long skip;
    byte[] open = {'['};
    try (JsonParser p = parser(open, part.start(), part.end())) {
      p.nextToken(); // [
      skip = readArray(p, part.start() - open.length, features, action, bad);
      if (skip < 0) {
        requireEnd(p, part.start() - open.length);
      }
    } catch (JsonProcessingException e) {
      throw corrupt(e, part.start() - open.length);
    }
    while (skip >= 0) {
      skip = resumeAfter(skip, part.end(), features, action, bad);
    }
    ringsClosed = features.ringsClosed();
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

  /** Groups the features array's elements into parts of about {@code partBytes}. */
  private static final class Parts implements FeatureArrayScan.Elements {
    private final long partBytes;
    private final Consumer<GeoJsonSeqSource.Range> out;
    private long start = -1;

    Parts(long partBytes, Consumer<GeoJsonSeqSource.Range> out) {
      this.partBytes = Math.max(1, partBytes);
      this.out = out;
    }

    @Override
    public void element(long at) {
      if (start < 0) {
        start = at;
      }
    }

    /** The current part ends before this comma when it is full. */
    @Override
    public void separator(long at) {
      if (at - start >= partBytes) {
        out.accept(new GeoJsonSeqSource.Range(start, at));
        start = -1;
      }
    }

    @Override
    public void end(long at) {
      if (start >= 0) {
        out.accept(new GeoJsonSeqSource.Range(start, at));
      }
    }
  }

  /** The first {@code left} bytes of a stream. */
  private static final class Bounded extends java.io.FilterInputStream {
    private long left;

    Bounded(InputStream in, long left) {
      super(in);
      this.left = left;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        left--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(Math.min(n, left));
      left -= skipped;
      return skipped;
    }

    @Override
    public int available() throws IOException {
      return (int) Math.min(super.available(), left);
    }
  }
}
