package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tilebeam.transforms.outcome.FeatureFailure;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeadLettersTest {

  @TempDir Path dir;

  private static TreeSet<String> lines(FeatureFailure... failures) {
    TreeSet<String> out = new TreeSet<>();
    for (FeatureFailure f : failures) {
      out.add(f.toJsonLine());
    }
    return out;
  }

  @Test
  void theFileIsTheSortedUnionOfEveryRecordAndARetryAddsNothing() throws Exception {
    Path file = DeadLetters.file(dir, "roads");
    FeatureFailure a = new FeatureFailure("roads", "a", "", "geometry", "a position is not finite");
    FeatureFailure b = new FeatureFailure("roads", "b", "3/1/2", "transform", "pole");
    FeatureFailure c = new FeatureFailure("roads", "c\"q", "3/1/3", "geometry", "beyond repair");

    assertEquals(2, DeadLetters.merge(file, lines(b, a)));
    byte[] first = Files.readAllBytes(file);
    // A retried bundle or a rerun brings the same records: the file does not change.
    assertEquals(2, DeadLetters.merge(file, lines(a)));
    assertEquals(List.of(first.length), List.of(Files.readAllBytes(file).length));
    // A later run that rebuilds other tiles keeps the earlier records.
    assertEquals(3, DeadLetters.merge(file, lines(c)));
    // Sorted as text: by error class first, as every line starts with it.
    assertEquals(
        List.of(a.toJsonLine(), c.toJsonLine(), b.toJsonLine()),
        Files.readAllLines(file, StandardCharsets.UTF_8));
    assertEquals(
        "{\"errorClass\":\"geometry\",\"featureId\":\"c\\\"q\",\"layer\":\"roads\","
            + "\"reason\":\"beyond repair\",\"tile\":\"3/1/3\"}",
        c.toJsonLine());
    // Only the file and its lock remain: no temporary file is left behind.
    try (var s = Files.list(file.getParent())) {
      assertEquals(
          List.of(".lock", "features.jsonl"),
          s.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  /** A feature that fails the same way in several tiles is one record listing them. */
  @Test
  void aFeatureFailingAlikeInManyTilesIsOneRecordListingThem() throws Exception {
    Path file = DeadLetters.file(dir, "roads");
    FeatureFailure t1 = new FeatureFailure("roads", "p", "3/1/2", "transform", "pole");
    FeatureFailure t2 = new FeatureFailure("roads", "p", "3/0/2", "transform", "pole");
    FeatureFailure other = new FeatureFailure("roads", "p", "3/4/4", "geometry", "beyond repair");
    String folded =
        "{\"errorClass\":\"transform\",\"featureId\":\"p\",\"layer\":\"roads\","
            + "\"reason\":\"pole\",\"tiles\":[\"3/0/2\",\"3/1/2\"]}";

    assertEquals(2, DeadLetters.merge(file, lines(t1, t2, other)));
    assertEquals(
        List.of(other.toJsonLine(), folded), Files.readAllLines(file, StandardCharsets.UTF_8));
    // A rerun bringing one of the tiles again changes nothing; a third tile joins the record.
    byte[] before = Files.readAllBytes(file);
    DeadLetters.merge(file, lines(t2));
    assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(file));
    DeadLetters.merge(file, lines(new FeatureFailure("roads", "p", "3/2/2", "transform", "pole")));
    assertEquals(
        List.of(other.toJsonLine(), folded.replace("\"3/1/2\"]", "\"3/1/2\",\"3/2/2\"]")),
        Files.readAllLines(file, StandardCharsets.UTF_8));
  }
}
