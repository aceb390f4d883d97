package io.tilebeam.pipeline.job;

import java.util.Locale;

/**
 * Text from outside (a job file, a flag, a source's error) made safe to print on a terminal:
 * control characters and the bidirectional overrides that reorder what a terminal shows are written
 * as {@code \\u{XXXX}}, so a hostile value can neither move the cursor nor disguise what it says.
 */
public final class SafeText {

  private SafeText() {}

  /** {@code text} with every control and bidirectional-control character escaped. */
  public static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints()
        .forEach(
            c -> {
              if (Character.isISOControl(c) || isBidiControl(c)) {
                out.append(String.format(Locale.ROOT, "\\u{%04X}", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }

  private static boolean isBidiControl(int c) {
    return (c >= 0x202A && c <= 0x202E)
        || (c >= 0x2066 && c <= 0x2069)
        || c == 0x200E
        || c == 0x200F
        || c == 0x061C;
  }
}
