package io.tilebeam.codec.archfixture;

import io.tilebeam.io.ledger.Ledger;

/**
 * A codec that reaches up into the ledger: what {@code LayersTest} must refuse. Test code only, so
 * the rules over main code never see it.
 */
public final class CodecThatReadsTheLedger {

  private CodecThatReadsTheLedger() {}

  /** Names the ledger's class, a dependency from the codecs' layer to the outside systems'. */
  public static String ledgerClass() {
    return Ledger.class.getName();
  }
}
