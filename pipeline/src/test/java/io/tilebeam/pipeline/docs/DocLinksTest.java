package io.tilebeam.pipeline.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every link of the project's documents leads somewhere: a relative link to a file or directory of
 * the repository that exists, and its {@code #anchor} to a heading of that document (GitHub's
 * slugs). Links out of the repository (a sibling directory) are refused: a reader of a clone does
 * not have them. Web links are not fetched (the tests reach no network).
 */
class DocLinksTest {

  /** The repository root: the tests run in the pipeline module's directory. */
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** {@code [text](target)} and {@code ![alt](target)}, the target without spaces. */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  private static final Pattern FENCE = Pattern.compile("^\\s*```");

  @Test
  void everyLinkOfTheDocumentsLeadsSomewhere() throws IOException {
    List<Path> docs = documents(ROOT);
    assertTrue(docs.size() >= 10, "the documents were not found under " + ROOT + ": " + docs);
    List<String> broken = new ArrayList<>();
    docs.forEach(d -> broken.addAll(brokenLinks(ROOT, d)));
    assertEquals(List.of(), broken);
  }

  /** The checker finds what is broken: a missing file, a missing heading, a link out. */
  @Test
  void brokenLinksAreFound(@TempDir Path repo) throws IOException {
    Files.createDirectories(repo.resolve("docs"));
    Files.writeString(repo.resolve("docs/a.md"), "# A\n\n## Two words\n");
    Path doc = repo.resolve("README.md");
    Files.writeString(
        doc,
        "# R\n[ok](docs/a.md#two-words) [self](#r) [web](https://example.org/x)\n"
            + "[gone](docs/b.md) [no heading](docs/a.md#three) [out](../shared/DESIGN.md)\n"
            + "```\n[in a fence](nowhere.md)\n```\n");
    List<String> broken = brokenLinks(repo, doc);
    assertEquals(3, broken.size(), broken.toString());
    assertTrue(broken.get(0).contains("docs/b.md"), broken.toString());
    assertTrue(broken.get(1).contains("#three"), broken.toString());
    assertTrue(broken.get(2).contains("outside the repository"), broken.toString());
  }

  /** The Markdown files a reader of the repository meets: top level, docs/, samples. */
  private static List<Path> documents(Path root) throws IOException {
    List<Path> out = new ArrayList<>();
    for (String dir : List.of(".", "docs", "src/samples", "scripts")) {
      Path d = root.resolve(dir);
      if (Files.isDirectory(d)) {
        try (Stream<Path> files = Files.list(d)) {
          files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(out::add);
        }
      }
    }
    return out;
  }

  /** Each broken link of {@code doc}, as {@code file:line: target: why}. */
  static List<String> brokenLinks(Path root, Path doc) {
    List<String> out = new ArrayList<>();
    List<String> lines = read(doc);
    boolean fenced = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (FENCE.matcher(line).find()) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher m = LINK.matcher(line);
      while (m.find()) {
        String target = m.group(1);
        String why = problem(root, doc, target);
        if (why != null) {
          out.add(root.relativize(doc) + ":" + (i + 1) + ": " + target + ": " + why);
        }
      }
    }
    return out;
  }

  /** Why {@code target}, linked from {@code doc}, leads nowhere; null when it leads somewhere. */
  private static String problem(Path root, Path doc, String target) {
    if (target.matches("[a-z]+:.*")) {
      return null; // https:, mailto: — not fetched
    }
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
    if (!to.startsWith(root)) {
      return "outside the repository";
    }
    if (!Files.exists(to)) {
      return "no such file";
    }
    if (anchor != null && to.toString().endsWith(".md") && !anchors(to).contains(anchor)) {
      return "no heading #" + anchor + " in " + root.relativize(to);
    }
    return null;
  }

  /** The anchors GitHub makes of a document's headings (a repeated one gets -1, -2, ...). */
  private static Set<String> anchors(Path doc) {
    Set<String> out = new HashSet<>();
    boolean fenced = false;
    for (String line : read(doc)) {
      if (FENCE.matcher(line).find()) {
        fenced = !fenced;
      } else if (!fenced && line.startsWith("#")) {
        String slug =
            line.replaceFirst("^#+\\s*", "")
                .trim()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
        String unique = slug;
        for (int n = 1; !out.add(unique); n++) {
          unique = slug + "-" + n;
        }
      }
    }
    return out;
  }

  private static List<String> read(Path doc) {
    try {
      return Files.readAllLines(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
