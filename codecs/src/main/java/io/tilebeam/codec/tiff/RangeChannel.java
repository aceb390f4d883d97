package io.tilebeam.codec.tiff;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only channel over a {@link RangeReader}, for SIS to read a remote GeoTIFF's header and
 * georeferencing from (it reads a few kilobytes there; pixels are read by {@link TiffFile}).
 */
public final class RangeChannel implements SeekableByteChannel {

  private final RangeReader reader;
  private long position;
  private boolean open = true;

  /** A channel over the bytes {@code reader} reads, at position 0. */
  public RangeChannel(RangeReader reader) {
    this.reader = reader;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    long size = reader.size();
    if (position >= size) {
      return -1;
    }
    int n = (int) Math.min(dst.remaining(), Math.min(size - position, RangeReader.READ_AHEAD));
    dst.put(reader.read(position, n));
    position += n;
    return n;
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) {
    position = newPosition;
    return this;
  }

  @Override
  public long size() throws IOException {
    return reader.size();
  }

  @Override
  public SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
  }
}
