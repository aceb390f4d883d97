package io.tilebeam.io.format;

import java.math.BigDecimal;

/** Writes coordinates in one fixed decimal form: no exponent, no trailing zeros, no minus zero. */
final class CoordinateFormat {

  private CoordinateFormat() {}

  static String format(double value) {
    if (value == 0) {
      return "0";
    }
    BigDecimal d = BigDecimal.valueOf(value).stripTrailingZeros();
    return d.scale() <= 0 ? d.toBigInteger().toString() : d.toPlainString();
  }
}
