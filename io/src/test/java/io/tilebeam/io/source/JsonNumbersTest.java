package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Ordinates read without a String each are bit for bit the doubles Jackson itself reads. */
class JsonNumbersTest {

  private static void sameAsJackson(List<String> numbers) throws Exception {
    String json = "[" + String.join(",", numbers) + "]";
    try (JsonParser p = JsonLimits.DEFAULT.mapper().getFactory().createParser(json)) {
      p.nextToken();
      int i = 0;
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken(), i++) {
        double ours = JsonNumbers.value(p, t);
        double jackson = p.getDoubleValue();
        assertEquals(
            Double.doubleToRawLongBits(jackson),
            Double.doubleToRawLongBits(ours),
            numbers.get(i) + ": " + ours + " against " + jackson);
      }
      assertEquals(numbers.size(), i);
    }
  }

  @Test
  void edgeCasesOfDecimalText() throws Exception {
    sameAsJackson(
        List.of(
            "-24.67366",
            "0.1",
            "-0.0",
            "-0",
            "0",
            "1E+2",
            "1e-400",
            "4.9e-324",
            "2.2250738585072011e-308",
            "1e400",
            "-1e400",
            "179.99999999999997",
            "123456789012345678901234567890.5",
            "12345678901234567890123",
            "0.30000000000000004441",
            "9007199254740993",
            "9007199254740993.0",
            "NaN",
            "Infinity",
            "-Infinity"));
  }

  @Test
  void randomOrdinatesInTheWaysWritersPrintThem() throws Exception {
    Random random = new Random(17);
    List<String> numbers = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      double v = (random.nextDouble() - 0.5) * 360;
      numbers.add(Double.toString(v));
      numbers.add(String.format(Locale.ROOT, "%.5f", v));
      numbers.add(String.format(Locale.ROOT, "%.17e", v * 1e6));
      numbers.add(
          Double.toString(Double.longBitsToDouble(random.nextLong() & 0x7fefffffffffffffL)));
    }
    sameAsJackson(numbers);
  }
}
