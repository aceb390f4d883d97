package io.tilebeam.transforms.key;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The deterministic key of one unit of work: {@code base32(sha256("<namespace>:v<algo>:" +
 * canonical JSON))}, 52 lower-case characters. Equal work gives equal keys on every runner, run and
 * machine.
 */
public record WorkKey(String value) implements Serializable, Comparable<WorkKey> {

  private static final Pattern FORM = Pattern.compile("[a-z2-7]{52}");

  /** Checks the form of the key. */
  public WorkKey {
    if (value == null || !FORM.matcher(value).matches()) {
      throw new IllegalArgumentException("not a work key: '" + value + "'");
    }
  }

  /** The key of {@code work}. */
  public static WorkKey of(TileWork work) {
    String preimage = work.namespace() + ":v" + work.algorithmVersion() + ":" + work.encode();
    return new WorkKey(Base32.encode(Sha256.of(preimage.getBytes(StandardCharsets.UTF_8))));
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
