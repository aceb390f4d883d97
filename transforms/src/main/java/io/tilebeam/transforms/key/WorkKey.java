package io.tilebeam.transforms.key;

import io.tilebeam.transforms.digest.Sha256;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;

/**
 * The deterministic key of one unit of work: {@code base32(sha256("<namespace>:v<algo>:" +
 * canonical JSON))}, 52 lower-case characters. Equal work gives equal keys on every runner, run and
 * machine.
 */
public record WorkKey(String value) implements Serializable, Comparable<WorkKey> {

  /** Checks the form of the key. */
  public WorkKey {
    if (!wellFormed(value)) {
      throw new IllegalArgumentException("not a work key: '" + value + "'");
    }
  }

  /** 52 characters of lower-case base32; checked by hand, as keys are decoded per element. */
  private static boolean wellFormed(String value) {
    if (value == null || value.length() != 52) {
      return false;
    }
    for (int i = 0; i < 52; i++) {
      char c = value.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (c >= '2' && c <= '7'))) {
        return false;
      }
    }
    return true;
  }

  /** The key of {@code work}. */
  public static WorkKey of(TileWork work) {
    String preimage = preimagePrefix(work) + work.encode();
    return new WorkKey(Base32.encode(Sha256.of(preimage.getBytes(StandardCharsets.UTF_8))));
  }

  /** What the hashed text starts with, before the work's canonical JSON. */
  static String preimagePrefix(TileWork work) {
    return work.namespace() + ":v" + work.algorithmVersion() + ":";
  }

  /**
   * A small non-negative number derived from the key, for keying state by bounded shards instead of
   * by key. Stable across JVMs (it reads the key's characters, not {@code hashCode()} of a type).
   */
  public int shard(int shards) {
    int h = 0;
    for (int i = 0; i < 6; i++) {
      h = h * 32 + (value.charAt(i) >= 'a' ? value.charAt(i) - 'a' : value.charAt(i) - '2' + 26);
    }
    return h % shards;
  }

  @Override
  public int compareTo(WorkKey other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
