package io.tilebeam.transforms.key;

import io.tilebeam.transforms.digest.Sha256;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Work keys of many tiles of one layer, fast: every tile of a layer shares the key's preimage up to
 * the tile's members, which sort last in the canonical JSON. That shared part is digested once;
 * each key then costs a copy of the digest's state and the tile's few bytes. Gives exactly {@link
 * WorkKey#of}'s keys (a property test holds the two together).
 *
 * <p>Not thread-safe: one per thread or per DoFn instance.
 */
public final class KeyHasher {

  private final TileWork template;
  private final MessageDigest shared;

  private KeyHasher(TileWork template) {
    this.template = template;
    this.shared = Sha256.create();
    String prefix = WorkKey.preimagePrefix(template) + template.encodeAllButTile();
    shared.update(prefix.getBytes(StandardCharsets.UTF_8));
  }

  /** A hasher for the tiles of {@code template}'s layer (its own tile is ignored). */
  public static KeyHasher of(TileWork template) {
    return new KeyHasher(template);
  }

  /** The template's work for {@code tile}. */
  public TileWork work(TileId tile) {
    return template.withTile(tile);
  }

  /** The key of the template's work for {@code tile}. */
  public WorkKey key(TileId tile) {
    MessageDigest d;
    try {
      d = (MessageDigest) shared.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
    }
    // The tile's members are ASCII digits and punctuation: one byte a char.
    d.update(TileWork.encodeTile(tile).getBytes(StandardCharsets.ISO_8859_1));
    return new WorkKey(Base32.encode(d.digest()));
  }
}
