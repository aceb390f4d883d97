package io.tilebeam.transforms.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.tiling.TileId;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkKeyTest {

  private static TileWork work(int z, long x, long y, String params) {
    return new TileWork(
        "nightly-tiles",
        1,
        "countries",
        "WebMercatorQuad",
        TileId.of(z, x, y),
        "sha256:0f343b0931126a20f133d67c2b018a3b0f3b6d2d5b9f6c7b0d1a2e3f4a5b6c7d",
        "OGC:CRS84",
        "EPSG:3857",
        "flatgeobuf",
        params);
  }

  /**
   * Golden keys: a change here changes every key users have in their ledgers. Any change to the
   * canonical form must come with an algorithm version bump. The values were checked against an
   * independent computation (Python: json.dumps(sort_keys=True, separators=(',', ':')), hashlib
   * sha256, base64.b32encode, lower case, padding stripped).
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0|0|0|{}|da6clc76ihr2cjf2vwejb3nkcupatyy4wkpnhwuk6jcervxyqdbq",
        "5|17|11|{\"bufferPixels\":8}|y5plhancvjt5nifl6ax4hjnfi7yw5t6cwvsr6g7rxqpvglnhffsa",
        "5|17|11|{\"precision\":3,\"bufferPixels\":8.0}|queum56d5rlazpvfwqj3s65cq3sm4y2itkimksw7whfq5kc6fjnq",
      })
  void goldenKeys(int z, long x, long y, String params, String key) {
    assertEquals(key, WorkKey.of(work(z, x, y, params)).value());
  }

  @Test
  void canonicalJsonIsSortedCompactAndHasOneNumberForm() {
    TileWork w = work(5, 17, 11, "{\"precision\":3, \"bufferPixels\":8.0, \"a\":[1.50,2E1]}");
    assertEquals(
        "{\"algorithm\":1,\"format\":\"flatgeobuf\",\"layer\":\"countries\","
            + "\"namespace\":\"nightly-tiles\",\"params\":{\"a\":[1.5,20],\"bufferPixels\":8,"
            + "\"precision\":3},\"source\":\"sha256:0f343b0931126a20f133d67c2b018a3b0f3b6d2d5b9f6c7b0d1a2e3f4a5b6c7d\","
            + "\"sourceCrs\":\"OGC:CRS84\",\"targetCrs\":\"EPSG:3857\","
            + "\"tileMatrixSet\":\"WebMercatorQuad\",\"x\":17,\"y\":11,\"z\":5}",
        w.encode());
  }

  @Test
  void stringsAreEscapedAsJacksonEscapesThem() throws Exception {
    StringBuilder all = new StringBuilder("quote\" back\\ slash/ é ✓ \u2028");
    for (char c = 0; c < 0x20; c++) {
      all.append(c);
    }
    String s = all.toString();
    assertEquals(
        new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(s),
        CanonicalJson.appendString(new StringBuilder(), s).toString());
  }

  @Test
  void equalWorkSpelledDifferentlyHasEqualKeys() {
    assertEquals(
        WorkKey.of(work(3, 1, 2, "{\"bufferPixels\":8,\"precision\":3}")),
        WorkKey.of(work(3, 1, 2, "{\"precision\":3.000,\"bufferPixels\":8.0}")));
  }

  @Test
  void everyFieldEntersTheKey() {
    TileWork base = work(3, 1, 2, "{}");
    assertNotEquals(WorkKey.of(base), WorkKey.of(base.withTile(TileId.of(3, 1, 3))));
    assertNotEquals(WorkKey.of(base), WorkKey.of(work(3, 1, 2, "{\"bufferPixels\":4}")));
  }

  @Test
  void canonicalJsonReadsBackToTheSameWork() {
    TileWork w = work(5, 17, 11, "{\"bufferPixels\":8,\"name\":\"a \\\"b\\\"\"}");
    assertEquals(w, TileWork.decode(w.encode()));
    assertEquals(w.encode(), TileWork.decode(w.encode()).encode());
  }

  @Test
  void coderRoundTripsAndIsDeterministic() throws Exception {
    TileWork w = work(5, 17, 11, "{\"bufferPixels\":8}");
    TileWorkCoder.of().verifyDeterministic();
    byte[] bytes = CoderUtils.encodeToByteArray(TileWorkCoder.of(), w);
    assertEquals(w, CoderUtils.decodeFromByteArray(TileWorkCoder.of(), bytes));
    WorkKey k = WorkKey.of(w);
    assertEquals(
        k,
        CoderUtils.decodeFromByteArray(
            WorkKeyCoder.of(), CoderUtils.encodeToByteArray(WorkKeyCoder.of(), k)));
  }

  @Test
  void shardsAreStableAndBounded() {
    WorkKey k = WorkKey.of(work(0, 0, 0, "{}"));
    assertEquals(k.shard(64), new WorkKey(k.value()).shard(64));
    for (int z = 0; z < 5; z++) {
      int s = WorkKey.of(work(z, 0, 0, "{}")).shard(7);
      org.junit.jupiter.api.Assertions.assertTrue(s >= 0 && s < 7);
    }
  }
}
