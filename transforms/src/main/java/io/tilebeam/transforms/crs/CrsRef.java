package io.tilebeam.transforms.crs;

import java.io.Serializable;

/**
 * A CRS as the job spelled it ({@code definition}: a code, URN, URI or WKT) with its normalised
 * {@code identity}. The identity enters work keys; the definition is what workers resolve, because
 * an identity made of a WKT digest cannot be resolved back.
 */
public record CrsRef(String identity, String definition) implements Serializable {

  /** Resolves {@code spelling} and normalises its identity; see {@link CrsResolver#identity}. */
  public static CrsRef of(String spelling) {
    CrsResolver.resolve(spelling);
    return new CrsRef(CrsResolver.identityOf(spelling), spelling.trim());
  }

  @Override
  public String toString() {
    return identity;
  }
}
