package io.tilebeam.codec.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.airlift.compress.Compressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bounded decompression: each codec gives back exactly what was compressed into a buffer of its
 * size, and data that would decompress past the buffer is an error naming the bytes it declares,
 * never a larger allocation; Parquet's LZ4 in Hadoop's framing (as parquet-mr writes it) and as a
 * raw block. Brotli is made by Node.js's zlib.
 */
class DecompressTest {

  /** Compressible, not trivial: runs of a few values with noise. */
  private static byte[] data(int n) {
    Random random = new Random(32);
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      out[i] = (byte) ((i / 37) % 11 + (random.nextInt(8) == 0 ? random.nextInt(4) : 0));
    }
    return out;
  }

  private static byte[] compress(Compressor c, byte[] in) {
    byte[] out = new byte[c.maxCompressedLength(in.length)];
    int n = c.compress(in, 0, in.length, out, 0, out.length);
    return Arrays.copyOf(out, n);
  }

  private interface Codec {
    int decompress(byte[] in, int from, int length, byte[] out, String what) throws IOException;
  }

  private static Codec codec(String name) {
    return switch (name) {
      case "zstd" -> Decompress::zstd;
      case "lz4" -> Decompress::lz4Raw;
      case "lz4-hadoop" -> Decompress::lz4Hadoop;
      case "snappy" -> Decompress::snappy;
      case "gzip" -> Decompress::gunzip;
      case "brotli" -> Decompress::brotli;
      default -> Decompress::inflate;
    };
  }

  private static byte[] compressed(String name, byte[] in) throws IOException {
    return switch (name) {
      case "zstd" -> compress(new ZstdCompressor(), in);
      case "lz4" -> compress(new Lz4Compressor(), in);
      case "lz4-hadoop" -> hadoopFrames(in, 10_000);
      case "snappy" -> compress(new SnappyCompressor(), in);
      case "brotli" -> brotli(in);
      case "gzip" -> {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(b)) {
          z.write(in);
        }
        yield b.toByteArray();
      }
      default -> {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(b)) {
          z.write(in);
        }
        yield b.toByteArray();
      }
    };
  }

  /** Brotli by Node.js's zlib (there is no Brotli encoder in Java here). */
  private static byte[] brotli(byte[] in) throws IOException {
    Process p =
        new ProcessBuilder(
                "node",
                "-e",
                "process.stdout.write(require('zlib').brotliCompressSync(require('fs').readFileSync(0)))")
            .start();
    try (var stdin = p.getOutputStream()) {
      stdin.write(in);
    }
    byte[] out = p.getInputStream().readAllBytes();
    try {
      if (p.waitFor() != 0) {
        throw new IOException("node failed: " + new String(p.getErrorStream().readAllBytes()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    return out;
  }

  /** Hadoop's LZ4 framing: per frame its size, then blocks each with its compressed size. */
  private static byte[] hadoopFrames(byte[] in, int frame) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int at = 0; at < in.length; at += frame) {
      byte[] part = Arrays.copyOfRange(in, at, Math.min(in.length, at + frame));
      byte[] block = compress(new Lz4Compressor(), part);
      out.writeBytes(ByteBuffer.allocate(8).putInt(part.length).putInt(block.length).array());
      out.writeBytes(block);
    }
    return out.toByteArray();
  }

  @ParameterizedTest
  @ValueSource(strings = {"zstd", "lz4", "lz4-hadoop", "snappy", "gzip", "zlib", "brotli"})
  void givesBackWhatWasCompressedAndNoMore(String name) throws Exception {
    byte[] in = data(100_000);
    byte[] packed = compressed(name, in);
    byte[] out = new byte[in.length];
    assertEquals(in.length, codec(name).decompress(packed, 0, packed.length, out, "a page"));
    assertArrayEquals(in, out);

    byte[] small = new byte[in.length - 1];
    IOException e =
        assertThrows(
            IOException.class,
            () -> codec(name).decompress(packed, 0, packed.length, small, "a page"));
    assertTrue(e.getMessage().startsWith("a page"), e.getMessage());
  }

  @Test
  void anLz4BlockWithoutHadoopsFramingIsReadRaw() throws Exception {
    byte[] in = data(50_000);
    byte[] raw = compress(new Lz4Compressor(), in);
    byte[] out = new byte[in.length];
    assertEquals(in.length, Decompress.lz4Hadoop(raw, 0, raw.length, out, "a page"));
    assertArrayEquals(in, out);
  }

  @Test
  void aSnappyLengthPastTheBufferIsRefusedBeforeDecoding() {
    byte[] claims = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08, 0, 1};
    IOException e =
        assertThrows(
            IOException.class,
            () -> Decompress.snappy(claims, 0, claims.length, new byte[100], "a page"));
    assertTrue(e.getMessage().contains("more than the 100 bytes it declares"), e.getMessage());
  }

  @Test
  void aDeflateBombStopsAtItsBuffer() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (DeflaterOutputStream z = new DeflaterOutputStream(b)) {
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < 64; i++) {
        z.write(zeros);
      }
    }
    byte[] bomb = b.toByteArray();
    IOException e =
        assertThrows(
            IOException.class,
            () -> Decompress.inflate(bomb, 0, bomb.length, new byte[4096], "a block"));
    assertTrue(e.getMessage().contains("more than the 4096 bytes"), e.getMessage());
  }

  @Test
  void damagedDataIsAnErrorNamingIt() {
    byte[] junk = data(1000);
    for (String name : new String[] {"zstd", "gzip", "zlib"}) {
      IOException e =
          assertThrows(
              IOException.class,
              () -> codec(name).decompress(junk, 0, junk.length, new byte[5000], "a block"),
              name);
      assertTrue(e.getMessage().startsWith("a block"), name + ": " + e.getMessage());
    }
  }
}
