package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.IOException;

/** Encoding a tile for a file-like sink, and checking that the bytes parse back. */
final class EncodedTiles {

  private EncodedTiles() {}

  /**
   * The tile in {@code format}, its geometries in {@code crs}.
   *
   * @throws TileDataException when it cannot be encoded: a data error of this tile alone
   */
  static TileFormat.Encoded encode(TileFormat format, CrsRef crs, TileContent tile)
      throws TileDataException {
    try {
      return format.encodeContent(tile, crs);
    } catch (IOException | RuntimeException e) {
      throw new TileDataException("encode", String.valueOf(e.getMessage()), e);
    }
  }

  /**
   * Checks that {@code bytes} parse back as {@code format} with {@code features} features.
   *
   * @throws TileDataException when they do not: the encoder wrote something it cannot read
   */
  static void checkParsesBack(TileFormat format, byte[] bytes, long features)
      throws TileDataException {
    long parsed;
    try {
      parsed = format.countFeatures(bytes);
    } catch (IOException | RuntimeException e) {
      throw new TileDataException("encode", "the encoded tile does not parse back: " + e, e);
    }
    if (parsed != features) {
      throw new TileDataException(
          "encode",
          "the encoded tile parses to " + parsed + " features, expected " + features,
          null);
    }
  }
}
