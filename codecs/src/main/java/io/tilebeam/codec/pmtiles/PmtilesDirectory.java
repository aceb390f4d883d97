package io.tilebeam.codec.pmtiles;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A PMTiles v3 directory's bytes: the entry count, then the entries column by column as varints
 * (tile ids as differences from the previous, run lengths, lengths, and offsets as 0 where an
 * entry's bytes follow the previous entry's, else offset + 1), gzip-compressed.
 */
public final class PmtilesDirectory {

  private PmtilesDirectory() {}

  /** The entries, sorted by tile id, as a gzip-compressed directory. */
  public static byte[] encode(List<PmtilesEntry> entries) throws IOException {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    varint(raw, entries.size());
    long last = 0;
    for (PmtilesEntry e : entries) {
      varint(raw, e.tileId() - last);
      last = e.tileId();
    }
    for (PmtilesEntry e : entries) {
      varint(raw, e.runLength());
    }
    for (PmtilesEntry e : entries) {
      varint(raw, e.length());
    }
    for (int i = 0; i < entries.size(); i++) {
      PmtilesEntry e = entries.get(i);
      PmtilesEntry before = i == 0 ? null : entries.get(i - 1);
      boolean follows = before != null && e.offset() == before.offset() + before.length();
      varint(raw, follows ? 0 : e.offset() + 1);
    }
    return gzip(raw.toByteArray());
  }

  /**
   * The entries of a gzip-compressed directory.
   *
   * @throws IOException when the bytes are not a whole directory
   */
  public static List<PmtilesEntry> decode(byte[] compressed) throws IOException {
    InputStream in;
    try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
      in = new ByteArrayInputStream(gz.readAllBytes());
    }
    long n = readVarint(in);
    if (n < 0 || n > 100_000_000) {
      throw new IOException("a PMTiles directory of " + n + " entries");
    }
    long[] ids = new long[(int) n];
    long[] runs = new long[(int) n];
    long[] lengths = new long[(int) n];
    long[] offsets = new long[(int) n];
    long last = 0;
    for (int i = 0; i < n; i++) {
      last += readVarint(in);
      ids[i] = last;
    }
    for (int i = 0; i < n; i++) {
      runs[i] = readVarint(in);
    }
    for (int i = 0; i < n; i++) {
      lengths[i] = readVarint(in);
    }
    for (int i = 0; i < n; i++) {
      long v = readVarint(in);
      offsets[i] = v == 0 && i > 0 ? offsets[i - 1] + lengths[i - 1] : v - 1;
    }
    List<PmtilesEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new PmtilesEntry(ids[i], offsets[i], lengths[i], runs[i]));
    }
    return out;
  }

  static byte[] gzip(byte[] raw) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // A gzip header holds a modification time; Java writes 0 there, so the bytes are stable.
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(raw);
    }
    return out.toByteArray();
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    if (v < 0) {
      throw new IllegalArgumentException("a negative varint: " + v);
    }
    while (v >= 0x80) {
      out.write((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static long readVarint(InputStream in) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("a PMTiles directory ends inside a number");
      }
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("a PMTiles directory holds a number of more than 64 bits");
  }
}
