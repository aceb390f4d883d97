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
import org.apache.beam.sdk.util.VarInt;

/**
 * The coding that a tile's pieces (going to the renderer) and its rendered features (going to the
 * sinks) share: chunks of items, each chunk its item count, its byte length and then every item's
 * id, geometry bytes and properties (each a varint length and its bytes, text in UTF-8); a count of
 * 0 ends the list.
 *
 * <p>Why chunks: a runner's stream costs a call, a bounds check and often a copy per write, and a
 * shuffle of millions of pieces would write each length prefix one byte at a time. A chunk's small
 * items are built in memory and written, and read back, in one call; its size is bounded so that a
 * tile of many features is never held twice in memory whole, and the item that fills it goes
 * between the stream and its own array without a copy.
 */
public final class FeatureTriples {

  /** Bytes after which a chunk is written: the item that reaches them is its last. */
  static final int CHUNK_BYTES = 64 << 10;

  /** Lengths of an item's part up to which an array of the length is made before reading. */
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

  /**
   * Writes every item's three parts, in order, in chunks. The item that fills a chunk is written
   * after the chunk's bytes straight from its own arrays, not copied into the chunk first: that
   * item is often a large country's piece of megabytes.
   */
  public static <T> void encode(List<T> items, Parts<T> parts, OutputStream out)
      throws IOException {
    Chunk chunk = new Chunk();
    for (T item : items) {
      byte[] id = parts.id().apply(item).getBytes(StandardCharsets.UTF_8);
      byte[] wkb = parts.wkb().apply(item);
      byte[] properties = parts.properties().apply(item).getBytes(StandardCharsets.UTF_8);
      long itemBytes = prefixed(id) + prefixed(wkb) + prefixed(properties);
      if (chunk.length() + itemBytes >= CHUNK_BYTES) {
        chunk.writeTo(out, id, wkb, properties, itemBytes);
      } else {
        chunk.add(id, wkb, properties);
      }
    }
    chunk.writeTo(out);
    VarIntCoder.of().encode(0, out);
  }

  /** The bytes {@code b} takes with its length before it. */
  private static long prefixed(byte[] b) {
    return VarInt.getLength(b.length) + (long) b.length;
  }

  /** Reads what {@link #encode} wrote; {@code what} names the items in an error. */
  public static <T> List<T> decode(InputStream in, String what, Maker<T> maker) throws IOException {
    List<T> items = new ArrayList<>();
    for (int n = count(in, what); n > 0; n = count(in, what)) {
      int length = VarIntCoder.of().decode(in);
      if (length < 0) {
        throw new CoderException("a negative length of a chunk of " + what + ": " + length);
      }
      Reader r = new Reader(in, length, what);
      for (int i = 0; i < n; i++) {
        items.add(maker.make(r.text(), r.bytes(), r.text()));
      }
      r.expectEnd();
    }
    return items;
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

    /**
     * Writes the chunk with one more item at its end, the same bytes as {@link #add} and {@link
     * #writeTo(OutputStream)} would, without copying the item; empties the chunk. {@code itemBytes}
     * is what the item's parts take with their lengths.
     */
    void writeTo(OutputStream out, byte[] id, byte[] wkb, byte[] properties, long itemBytes)
        throws IOException {
      long length = bytes.size() + itemBytes;
      if (length > Integer.MAX_VALUE) {
        throw new CoderException("a chunk of " + length + " bytes, more than a coding can hold");
      }
      VarIntCoder.of().encode(count + 1, out);
      VarIntCoder.of().encode((int) length, out);
      bytes.writeTo(out);
      for (byte[] part : new byte[][] {id, wkb, properties}) {
        VarIntCoder.of().encode(part.length, out);
        out.write(part);
      }
      count = 0;
      bytes.clear();
    }
  }

  /**
   * Reads a chunk's items from the stream: its bytes through a buffer of at most {@link
   * #CHUNK_BYTES}, refilled as the items use it, so that small items cost no call of the stream
   * each; a part that runs past the buffer is read into its own array straight from the stream, so
   * that a large item is neither gathered in a chunk's array nor copied out of one.
   */
  private static final class Reader {
    private final InputStream in;
    private final String what;
    private final int length;
    private final byte[] buf;
    private int pos;
    private int limit;
    // Bytes of the chunk not yet read from the stream.
    private int unread;

    Reader(InputStream in, int length, String what) throws IOException {
      this.in = in;
      this.what = what;
      this.length = length;
      this.unread = length;
      this.buf = new byte[Math.min(length, CHUNK_BYTES)];
      fill();
    }

    /** Reads the chunk's next bytes into the buffer, as many as it holds. */
    private void fill() throws IOException {
      int n = Math.min(unread, buf.length);
      require(in.readNBytes(buf, 0, n), n);
      pos = 0;
      limit = n;
      unread -= n;
    }

    private void require(int read, int wanted) throws EOFException {
      if (read != wanted) {
        int got = length - unread + read;
        throw new EOFException(
            "a chunk of " + what + " cut short: " + got + " of " + length + " bytes");
      }
    }

    String text() throws IOException {
      int n = length();
      if (n <= limit - pos) {
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
      }
      return new String(take(n), StandardCharsets.UTF_8);
    }

    byte[] bytes() throws IOException {
      int n = length();
      if (n <= limit - pos) {
        byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return b;
      }
      return take(n);
    }

    /**
     * The next {@code n} bytes, more than the buffer still holds: what it holds, then the rest
     * straight from the stream. Up to {@link #WHOLE_READ_BYTES} the array is made first; a longer
     * rest (corrupt lengths among them) is gathered by the stream, so that it fails at the stream's
     * end rather than allocating first.
     */
    private byte[] take(int n) throws IOException {
      int held = limit - pos;
      int rest = n - held;
      byte[] b;
      if (n <= WHOLE_READ_BYTES) {
        b = new byte[n];
        require(in.readNBytes(b, held, rest), rest);
      } else {
        byte[] tail = in.readNBytes(rest);
        require(tail.length, rest);
        b = new byte[n];
        System.arraycopy(tail, 0, b, held, rest);
      }
      System.arraycopy(buf, pos, b, 0, held);
      pos = limit;
      unread -= rest;
      return b;
    }

    private int length() throws IOException {
      int v = 0;
      for (int shift = 0; shift < 32; shift += 7) {
        if (pos == limit) {
          if (unread == 0) {
            throw new CoderException("a chunk of " + what + " ends inside a length");
          }
          fill();
        }
        int b = buf[pos++];
        v |= (b & 0x7F) << shift;
        if (b >= 0) {
          if (v < 0 || v > limit - pos + unread) {
            throw new CoderException("a length past the end of a chunk of " + what + ": " + v);
          }
          return v;
        }
      }
      throw new CoderException("a length of more than five bytes in a chunk of " + what);
    }

    void expectEnd() throws CoderException {
      if (pos != limit || unread != 0) {
        throw new CoderException(
            (limit - pos + unread) + " bytes after the items of a chunk of " + what);
      }
    }
  }
}
