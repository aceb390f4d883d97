package io.tilebeam.transforms.feature;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;

/**
 * The coding that a tile's pieces (going to the renderer) and its rendered features (going to the
 * sinks) share: a count, then each one's id, geometry bytes and properties.
 */
public final class FeatureTriples {

  /** Makes one item from its three parts. */
  public interface Maker<T> {
    /** The item with this id, geometry bytes and properties. */
    T make(String id, byte[] wkb, String properties);
  }

  /** How to read an item's three parts. */
  public record Parts<T>(
      Function<T, String> id, Function<T, byte[]> wkb, Function<T, String> properties) {}

  private FeatureTriples() {}

  /** Writes the count and every item's three parts, in order. */
  public static <T> void encode(List<T> items, Parts<T> parts, OutputStream out)
      throws IOException {
    VarIntCoder.of().encode(items.size(), out);
    for (T item : items) {
      StringUtf8Coder.of().encode(parts.id().apply(item), out);
      ByteArrayCoder.of().encode(parts.wkb().apply(item), out);
      StringUtf8Coder.of().encode(parts.properties().apply(item), out);
    }
  }

  /** Reads what {@link #encode} wrote; {@code what} names the items in an error. */
  public static <T> List<T> decode(InputStream in, String what, Maker<T> maker) throws IOException {
    int n = count(in, what);
    List<T> items = new ArrayList<>(Math.min(n, 1 << 16));
    for (int i = 0; i < n; i++) {
      items.add(
          maker.make(
              StringUtf8Coder.of().decode(in),
              ByteArrayCoder.of().decode(in),
              StringUtf8Coder.of().decode(in)));
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
}
