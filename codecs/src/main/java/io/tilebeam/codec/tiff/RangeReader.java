package io.tilebeam.codec.tiff;

import io.tilebeam.codec.ByteRanges;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A raster source's bytes read by position: a local file through one open channel, or remote bytes
 * ({@link ByteRanges}) one ranged request at a time, small reads (a TIFF's directories and tags,
 * SIS's header reads) served from one read-ahead chunk so they do not cost a request each.
 */
public abstract class RangeReader implements Closeable {

  /** Bytes fetched at once for a small remote read. */
  static final int READ_AHEAD = 64 << 10;

  /** The size in bytes. */
  public abstract long size() throws IOException;

  /**
   * Exactly {@code length} bytes at {@code at}.
   *
   * @throws EOFException when the bytes end before them
   */
  abstract byte[] read(long at, int length) throws IOException;

  /** Where the bytes are, for messages. */
  abstract String describe();

  /** A local file. */
  public static RangeReader of(Path file) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    return new RangeReader() {
      @Override
      public long size() throws IOException {
        return channel.size();
      }

      @Override
      byte[] read(long at, int length) throws IOException {
        long size = channel.size();
        // Checked before the buffer is made: a length read from a header may be a lie.
        if (at < 0 || length < 0 || at > size || length > size - at) {
          throw new EOFException(
              describe() + " ends at " + size + " bytes, before " + at + " + " + length);
        }
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
          if (channel.read(b, at + b.position()) < 0) {
            throw new EOFException(
                describe() + " ends at " + channel.size() + " bytes, before " + (at + length));
          }
        }
        return b.array();
      }

      @Override
      String describe() {
        return file.toString();
      }

      @Override
      public void close() throws IOException {
        channel.close();
      }
    };
  }

  /** Remote bytes, or the local file they are. */
  public static RangeReader of(ByteRanges bytes) throws IOException {
    if (bytes.localPath() != null) {
      return of(bytes.localPath());
    }
    long size = bytes.size();
    return new RangeReader() {
      private long chunkAt = -1;
      private byte[] chunk;

      @Override
      public long size() {
        return size;
      }

      @Override
      byte[] read(long at, int length) throws IOException {
        if (at < 0 || length < 0 || at > size || length > size - at) {
          throw new EOFException(
              describe() + " ends at " + size + " bytes, before " + (at + length));
        }
        if (length >= READ_AHEAD) {
          return bytes.read(at, length);
        }
        if (chunk == null || at < chunkAt || at + length > chunkAt + chunk.length) {
          chunkAt = at;
          chunk = bytes.read(at, (int) Math.min(READ_AHEAD, size - at));
        }
        byte[] out = new byte[length];
        System.arraycopy(chunk, (int) (at - chunkAt), out, 0, length);
        return out;
      }

      @Override
      String describe() {
        return bytes.describe();
      }

      @Override
      public void close() {
        chunk = null;
      }
    };
  }
}
