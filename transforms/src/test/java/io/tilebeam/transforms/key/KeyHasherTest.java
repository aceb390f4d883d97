package io.tilebeam.transforms.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.tiling.TileId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;

class KeyHasherTest {

  /** The work of {@code WorkKeyTest}'s golden keys, for {@code layer}, at tile 0/0/0. */
  static TileWork template(String layer, String params) {
    return new TileWork(
        "nightly-tiles",
        1,
        layer,
        "WebMercatorQuad",
        TileId.of(0, 0, 0),
        "sha256:0f343b0931126a20f133d67c2b018a3b0f3b6d2d5b9f6c7b0d1a2e3f4a5b6c7d",
        "OGC:CRS84",
        "EPSG:3857",
        "flatgeobuf",
        params);
  }

  @Property(tries = 500)
  void givesWorkKeyOfsKeysForEveryTileAndTemplate(
      @ForAll @IntRange(min = 0, max = 30) int z,
      @ForAll @IntRange(min = 0) int xSeed,
      @ForAll @IntRange(min = 0) int ySeed,
      @ForAll @StringLength(min = 1, max = 64) @CharRange(from = 'a', to = 'z') String layer,
      @ForAll @StringLength(max = 300) String label,
      @ForAll @IntRange(min = 0, max = 100_000) int buffer) {
    long side = 1L << z;
    TileId tile = TileId.of(z, xSeed % side, ySeed % side);
    StringBuilder params = new StringBuilder("{\"label\":");
    CanonicalJson.appendString(params, label);
    params.append(",\"bufferPixels\":").append(buffer).append('}');
    TileWork template = template(layer, params.toString());
    KeyHasher hasher = KeyHasher.of(template);
    assertEquals(WorkKey.of(template.withTile(tile)), hasher.key(tile));
    assertEquals(template.withTile(tile), hasher.work(tile));
  }

  @Property(tries = 50)
  void oneHasherGivesIndependentKeysInAnyOrder(
      @ForAll @IntRange(min = 0, max = 20) int z, @ForAll @IntRange(min = 0) int seed) {
    long side = 1L << z;
    TileWork template = template("countries", "{}");
    KeyHasher hasher = KeyHasher.of(template);
    TileId a = TileId.of(z, seed % side, (seed / 7) % side);
    TileId b = TileId.of(z, (seed / 3) % side, seed % side);
    WorkKey first = hasher.key(a);
    hasher.key(b);
    assertEquals(first, hasher.key(a));
  }
}
