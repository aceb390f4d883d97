package io.tilebeam.transforms.feature;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.VarIntCoder;

/**
 * The coding that a tile's pieces (going to the renderer) and its rendered features (going to the
 * sinks) share: chunks of items, each chunk its item count, its byte length and then every item's
 * id, geometry bytes and properties (each a varint length and its bytes, text in UTF-8); a count of
 * 0 ends the list.
 *
 * <p>Why chunks: a runner's stream costs a call, a bounds check and often a copy per write, and a
 * shuffle of millions of pieces would write each length prefix one byte at a time. A chunk is built
 * in memory and written, and read back, in one call; its size is bounded so that a tile of many
 * features is never held twice in memory whole.
 */
public final class FeatureTriples {

  /** Bytes after which a chunk is written; a single larger item makes a chunk of its own. */
  static final int CHUNK_BYTES = 64 << 10;

  /** Chunk lengths up to which an array of the length is made before reading. */
  private static final int WHOLE_READ_BYTES = 16 << 20;

  /** Makes one item from its three parts. */
  public interface Maker<T> {
    /** The item with this id, geometry bytes and properties. */
    T make(String id, byte[] wkb, String properties);
  }

  /** How to read an item's three parts. */
  public record Parts<T>(
      Function<T, String> id, Function<T, byte[]> wkb, Function<T, String> properties) {}

  private FeatureTriples() {}

  /** Writes every item's three parts, in order, in chunks. */
  public static <T> void encode(List<T> items, Parts<T> parts, OutputStream out)
      throws IOException {
    Chunk chunk = new Chunk();
    for (T item : items) {
      chunk.add(
          parts.id().apply(item).getBytes(StandardCharsets.UTF_8),
          parts.wkb().apply(item),
          parts.properties().apply(item).getBytes(StandardCharsets.UTF_8));
      if (chunk.length() >= CHUNK_BYTES) {
        chunk.writeTo(out);
      }
    }
    chunk.writeTo(out);
    VarIntCoder.of().encode(0, out);
  }

  /** Reads what {@link #encode} wrote; {@code what} names the items in an error. */
  public static <T> List<T> decode(InputStream in, String what, Maker<T> maker) throws IOException {
    List<T> items = new ArrayList<>();
    for (int n = count(in, what); n > 0; n = count(in, what)) {
      int length = VarIntCoder.of().decode(in);
      if (length < 0) {
        throw new CoderException("a negative length of a chunk of " + what + ": " + length);
      }
      byte[] bytes = chunk(in, length, what);
      Reader r = new Reader(bytes, what);
      for (int i = 0; i < n; i++) {
        items.add(maker.make(r.text(), r.bytes(), r.text()));
      }
      r.expectEnd();
    }
    return items;
  }

  /**
   * The {@code length} bytes of a chunk. A chunk of the usual size is read into an array of its
   * size at once; {@link InputStream#readNBytes(int)} would gather it in pieces and copy them
   * together, twice the garbage of a shuffle. A length beyond any chunk written whole (corrupt
   * bytes) is read in pieces, so that it fails at the stream's end rather than allocating first.
   */
  private static byte[] chunk(InputStream in, int length, String what) throws IOException {
    byte[] bytes;
    int read;
    if (length <= WHOLE_READ_BYTES) {
      bytes = new byte[length];
      read = in.readNBytes(bytes, 0, length);
    } else {
      bytes = in.readNBytes(length);
      read = bytes.length;
    }
    if (read != length) {
      throw new EOFException(
          "a chunk of " + what + " cut short: " + read + " of " + length + " bytes");
    }
    return bytes;
  }

  /**
   * A count of items written before them, refused when negative (bytes that are not this coding).
   */
  public static int count(InputStream in, String what) throws IOException {
    int n = VarIntCoder.of().decode(in);
    if (n < 0) {
      throw new CoderException("a negative count of " + what + ": " + n);
    }
    return n;
  }

  /** Items encoded in memory until written. */
  private static final class Chunk {
    private final VarintBytes bytes = new VarintBytes(256);
    private int count;

    void add(byte[] id, byte[] wkb, byte[] properties) {
      bytes.lengthPrefixed(id);
      bytes.lengthPrefixed(wkb);
      bytes.lengthPrefixed(properties);
      count++;
    }

    /** The bytes of the items added since the chunk was last written. */
    int length() {
      return bytes.size();
    }

    /** Writes the chunk, if it holds anything, and empties it. */
    void writeTo(OutputStream out) throws IOException {
      if (count == 0) {
        return;
      }
      VarIntCoder.of().encode(count, out);
      VarIntCoder.of().encode(bytes.size(), out);
      bytes.writeTo(out);
      count = 0;
      bytes.clear();
    }
  }

  /** Reads a chunk's items from its bytes. */
  private static final class Reader {
    private final byte[] buf;
    private final String what;
    private int pos;

    Reader(byte[] buf, String what) {
      this.buf = buf;
      this.what = what;
    }

    String text() throws CoderException {
      int n = length();
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    byte[] bytes() throws CoderException {
      int n = length();
      byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return b;
    }

    private int length() throws CoderException {
      int v = 0;
      for (int shift = 0; shift < 32; shift += 7) {
        if (pos >= buf.length) {
          throw new CoderException("a chunk of " + what + " ends inside a length");
        }
        int b = buf[pos++];
        v |= (b & 0x7F) << shift;
        if (b >= 0) {
          if (v < 0 || v > buf.length - pos) {
            throw new CoderException("a length past the end of a chunk of " + what + ": " + v);
          }
          return v;
        }
      }
      throw new CoderException("a length of more than five bytes in a chunk of " + what);
    }

    void expectEnd() throws CoderException {
      if (pos != buf.length) {
        throw new CoderException(
            (buf.length - pos) + " bytes after the items of a chunk of " + what);
      }
    }
  }
}
