package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.doubleparser.JavaDoubleParser;
import java.io.IOException;

/** The numbers of GeoJSON positions, read as Jackson reads them but without a String each. */
final class JsonNumbers {

  private JsonNumbers() {}

  /**
   * The value of the number token {@code t} the parser is at: the same double as {@link
   * JsonParser#getDoubleValue()} (both round correctly). A float is parsed from the parser's own
   * characters by the parser Jackson ships for its fast option, where Jackson 2.15 makes a String
   * of each first: a country file's tens of millions of ordinates were a gigabyte of garbage. An
   * integer goes to Jackson as before (it reads {@code -0} as 0, not −0).
   */
  static double value(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      try {
        return JavaDoubleParser.parseDouble(
            p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
      } catch (NumberFormatException e) {
        // Text the fast parser does not take (none that JSON allows): Jackson's own way.
      }
    }
    return p.getDoubleValue();
  }
}
