package io.tilebeam.transforms.crs;

import java.io.Serializable;

/**
 * A CRS as the job spelled it ({@code definition}: a code, URN, URI or WKT) with its normalised
 * {@code identity}. The identity enters work keys; the definition is what workers resolve, because
 * an identity made of a WKT digest cannot be resolved back.
 */
public record CrsRef(String identity, String definition) implements Serializable {

  /**
   * Resolves {@code spelling} and normalises its identity (see {@link CrsIdentities}). When the
   * identity is an EPSG or CRS84 code, the definition is that code, so that every spelling of one
   * CRS computes with the authority's definition.
   *
   * @throws UnknownCrsException when SIS cannot read it, or a WKT contradicts its own code
   */
  public static CrsRef of(String spelling) {
    if (spelling == null || spelling.isBlank()) {
      throw new UnknownCrsException(
          String.valueOf(spelling), new IllegalArgumentException("empty"));
    }
    // Remembered (CrsMemo) only once the definition resolves, so a remembered spelling is valid.
    return CrsMemo.get(
        "reference:" + spelling.trim(),
        () -> {
          CrsRef ref = CrsIdentities.reference(spelling);
          CrsResolver.resolve(ref.definition());
          return ref.identity() + "\n" + ref.definition();
        },
        fact -> {
          int cut = fact.indexOf('\n');
          if (cut <= 0 || cut == fact.length() - 1) {
            throw new IllegalArgumentException("not a reference: " + fact);
          }
          return new CrsRef(fact.substring(0, cut), fact.substring(cut + 1));
        });
  }

  @Override
  public String toString() {
    return identity;
  }
}
