package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads GeoJSONSeq: one GeoJSON Feature per line, each line optionally starting with the record
 * separator (RFC 8142's {@code 0x1E}); newline-delimited GeoJSON is the same without it. Blank
 * lines are skipped.
 *
 * <p>A file is read in byte ranges that need no coordination, so that a large file is read in
 * parallel: a record belongs to the range its first byte lies in. A range that does not start at 0
 * begins after the first line break at or after its start minus one byte, which is exactly where
 * the previous range's last record ended. A record that is not JSON, or not a usable Feature, costs
 * itself only: it is reported with its byte offset and the reading goes on.
 */
public final class GeoJsonSeqSource {

  /** The most bytes per range when a file is split for parallel reading. */
  public static final long SPLIT_BYTES = 32L << 20;

  /** The fewest bytes per range, below which a range's fixed costs would show. */
  static final long MIN_SPLIT_BYTES = 1L << 20;

  /** The ranges a file is cut into, when its size allows ranges of {@link #MIN_SPLIT_BYTES}. */
  static final int SPLITS = 64;

  private static final byte RS = 0x1E;

  private final SourceFile file;
  private final String path;
  private final JsonLimits limits;
  private final ObjectReader record;
  private long ringsClosed;

  /** A source reading a local file. */
  public GeoJsonSeqSource(Path path) {
    this(new SourceFile.Local(path.toString()));
  }

  /** A source reading {@code file} under the default limits. */
  public GeoJsonSeqSource(SourceFile file) {
    this(file, JsonLimits.DEFAULT);
  }

  /** A source reading {@code file}, each record under {@code limits}. */
  public GeoJsonSeqSource(SourceFile file, JsonLimits limits) {
    this.file = file;
    this.path = file.describe();
    this.limits = limits;
    this.record =
        limits
            .mapper()
            .readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  }

  /**
   * A byte range of a file, {@code [start, end)}.
   *
   * @param start the first byte
   * @param end one past the last byte
   */
  public record Range(long start, long end) implements java.io.Serializable {}

  /**
   * The bytes per range for a file of {@code size} bytes: {@link #SPLITS} ranges, each between
   * {@link #MIN_SPLIT_BYTES} and {@link #SPLIT_BYTES}. Ranges go to workers at random; with few of
   * them the load is uneven (one worker may get most of them and leave a core idle while it
   * finishes), and many ranges even it out.
   */
  public static long splitBytes(long size) {
    return Math.max(MIN_SPLIT_BYTES, Math.min(SPLIT_BYTES, ceilDiv(size, SPLITS)));
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  /** The ranges of {@code splitBytes} (the last one shorter) that cover {@code size} bytes. */
  public static List<Range> split(long size, long splitBytes) {
    if (splitBytes < 1) {
      throw new IllegalArgumentException("splitBytes must be positive, was " + splitBytes);
    }
    List<Range> out = new ArrayList<>();
    for (long at = 0; at < size; at += splitBytes) {
      out.add(new Range(at, Math.min(size, at + splitBytes)));
    }
    return out;
  }

  /**
   * Calls {@code action} for every usable feature whose record starts in {@code range}, and {@code
   * bad} for every record there that cannot be used, in file order.
   *
   * @throws IOException when the file cannot be read
   */
  public void forEach(Range range, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException {
    GeoJsonFeatures features = new GeoJsonFeatures();
    PlainGeoJsonRecord plain = new PlainGeoJsonRecord(limits.mapper());
    long offset = Math.max(0, range.start() - 1);
    try (InputStream in = file.open(offset)) {
      Lines lines = new Lines(in, limits.maxRecordBytes());
      if (range.start() > 0) {
        // Skip the tail of the record that started in the previous range.
        offset += lines.next();
      }
      while (offset < range.end() && !lines.atEnd()) {
        long recordStart = offset;
        offset += lines.next();
        record(
            lines.line(),
            lines.length(),
            lines.tooLong(),
            recordStart,
            plain,
            features,
            action,
            bad);
      }
    }
    ringsClosed = features.ringsClosed();
  }

  private void record(
      byte[] bytes,
      int length,
      boolean tooLong,
      long at,
      PlainGeoJsonRecord plain,
      GeoJsonFeatures features,
      Consumer<Feature> action,
      Consumer<BadFeature> bad) {
    if (tooLong) {
      bad.accept(
          new BadFeature(
              "record at byte " + at,
              "longer than "
                  + limits.maxRecordBytes()
                  + " bytes, the most tilebeam reads as one record; skipped unread"));
      return;
    }
    int from = 0;
    while (from < length && (bytes[from] == RS || isSpace(bytes[from]))) {
      from++;
    }
    if (from == length) {
      return; // a blank line
    }
    Feature read = plain.read(bytes, from, length - from);
    if (read != null) {
      action.accept(read);
      return;
    }
    // Not of the plain kind: the tree reading repairs what it can and names what is wrong.
    JsonNode node;
    try {
      node = record.readValue(bytes, from, length - from);
    } catch (StreamConstraintsException e) {
      bad.accept(new BadFeature("record at byte " + at, limits.broken(e)));
      return;
    } catch (JsonProcessingException e) {
      bad.accept(
          new BadFeature(
              "record at byte " + at, "corrupt JSON in " + path + ": " + e.getOriginalMessage()));
      return;
    } catch (IOException e) {
      bad.accept(new BadFeature("record at byte " + at, "unreadable record: " + e.getMessage()));
      return;
    }
    Feature feature;
    try {
      feature = features.toFeature(node);
    } catch (IllegalArgumentException e) {
      String id = GeoJsonFeatures.ownId(node);
      bad.accept(new BadFeature(id != null ? id : "record at byte " + at, e.getMessage()));
      return;
    }
    action.accept(feature);
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\r';
  }

  /** Unclosed polygon rings the last {@link #forEach} closed. */
  public long ringsClosed() {
    return ringsClosed;
  }

  /**
   * The lines of a stream, found by scanning a block at a time: reading byte by byte through a
   * buffered stream cost more than parsing the records.
   */
  private static final class Lines {
    private final InputStream in;
    private final byte[] block = new byte[1 << 16];
    private int pos;
    private int limit;
    private boolean eof;
    private byte[] line = new byte[4096];
    private int length;
    private boolean tooLong;
    private final int maxBytes;

    Lines(InputStream in, int maxBytes) {
      this.in = in;
      this.maxBytes = maxBytes;
    }

    /** Whether the stream has no byte left. */
    boolean atEnd() throws IOException {
      return !fill();
    }

    /**
     * Reads the next line (without its newline) into {@link #line()}.
     *
     * @return the bytes consumed, newline included when there was one
     */
    long next() throws IOException {
      length = 0;
      tooLong = false;
      long consumed = 0;
      while (fill()) {
        int start = pos;
        while (pos < limit && block[pos] != '\n') {
          pos++;
        }
        append(start, pos - start);
        consumed += pos - start;
        if (pos < limit) {
          pos++;
          return consumed + 1;
        }
      }
      return consumed;
    }

    byte[] line() {
      return line;
    }

    /** Whether the last line was longer than a record may be: its bytes were not kept. */
    boolean tooLong() {
      return tooLong;
    }

    int length() {
      return length;
    }

    private boolean fill() throws IOException {
      while (pos >= limit && !eof) {
        int n = in.read(block, 0, block.length);
        if (n < 0) {
          eof = true;
        } else {
          pos = 0;
          limit = n;
        }
      }
      return pos < limit;
    }

    private void append(int from, int n) {
      if (tooLong || (long) length + n > maxBytes) {
        // Counted, not kept: a line of gigabytes must not take the heap.
        tooLong = true;
        length = 0;
        return;
      }
      if (length + n > line.length) {
        line = java.util.Arrays.copyOf(line, Math.max(line.length * 2, length + n));
      }
      System.arraycopy(block, from, line, length, n);
      length += n;
    }
  }
}
