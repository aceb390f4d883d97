package io.tilebeam.pipeline.job;

import java.io.StringReader;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;

/**
 * The job language's YAML, checked before the job is read as a tree: a walk over the parser's
 * events that refuses what YAML allows but a job file must not hold, each with its field and line,
 * and records the line of every field for later messages ({@link Lines}).
 *
 * <p>Refused: anchors and aliases ({@code &dest}, {@code *dest}) and merge keys ({@code <<}), which
 * a tree reader would take as the literal text {@code dest}; a key given twice in one mapping (both
 * lines named), where the last would silently win; keys that are not plain strings; non-finite
 * numbers ({@code .nan}, {@code .inf}); more than one document in the file.
 */
final class JobYaml {

  private static final Pattern NON_FINITE =
      Pattern.compile("[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");

  private JobYaml() {}

  /** The line of each field of a job file, by field path ({@code layers[0].source.uri}). */
  static final class Lines {
    private final Map<String, Integer> lines;

    private Lines(Map<String, Integer> lines) {
      this.lines = lines;
    }

    /** No lines known: a job made in code, not read from a file. */
    static final Lines NONE = new Lines(Map.of());

    /**
     * The line of {@code path}, or of its nearest enclosing field when it is not in the file (a
     * required field missing is reported at its mapping); 0 when unknown.
     */
    int of(String path) {
      for (String p = path; !p.isEmpty(); p = parent(p)) {
        Integer line = lines.get(p);
        if (line != null) {
          return line;
        }
      }
      return 0;
    }

    private static String parent(String path) {
      int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
      return cut < 0 ? "" : path.substring(0, cut);
    }
  }

  /**
   * Checks {@code text} and returns the line of each field.
   *
   * @throws JobSpecException naming the field, the value and the line of the first fault
   */
  static Lines check(String text) {
    LoaderOptions options = new LoaderOptions();
    Yaml yaml = new Yaml(options);
    Map<String, Integer> lines = new HashMap<>();
    try {
      Iterator<Event> events = yaml.parse(new StringReader(text)).iterator();
      int documents = 0;
      while (events.hasNext()) {
        Event e = events.next();
        if (e instanceof DocumentStartEvent) {
          if (++documents > 1) {
            throw new JobSpecException(
                "job", "---", "holds more than one YAML document; a job file is one", line(e));
          }
        } else if (e instanceof NodeEvent) {
          new Walk(events, lines).value(e, "");
        }
      }
    } catch (MarkedYAMLException e) {
      Mark at = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      int line = at == null ? 0 : at.getLine() + 1;
      throw new JobSpecException(
          "job", lineText(text, line), "not valid YAML: " + e.getProblem(), line, e);
    } catch (YAMLException e) {
      throw new JobSpecException("job", null, "not valid YAML: " + e.getMessage(), 0, e);
    }
    return new Lines(lines);
  }

  /** One document's events, walked depth first with the path of each value. */
  private static final class Walk {
    private final Iterator<Event> events;
    private final Map<String, Integer> lines;

    Walk(Iterator<Event> events, Map<String, Integer> lines) {
      this.events = events;
      this.lines = lines;
    }

    /** Checks the value that starts with {@code e}, at {@code path}, and every value inside it. */
    void value(Event e, String path) {
      String field = path.isEmpty() ? "job" : path;
      if (e instanceof AliasEvent alias) {
        throw new JobSpecException(
            field,
            "*" + alias.getAnchor(),
            "aliases (*name) are not part of the job language: write the value out",
            line(e));
      }
      NodeEvent node = (NodeEvent) e;
      if (node.getAnchor() != null) {
        throw new JobSpecException(
            field,
            "&" + node.getAnchor(),
            "anchors (&name) are not part of the job language: write each value out",
            line(e));
      }
      if (!path.isEmpty()) {
        lines.putIfAbsent(path, line(e));
      }
      if (e instanceof ScalarEvent scalar) {
        if (scalar.isPlain() && NON_FINITE.matcher(scalar.getValue()).matches()) {
          throw new JobSpecException(field, scalar.getValue(), "is not a finite number", line(e));
        }
      } else if (e instanceof MappingStartEvent) {
        mapping(path);
      } else if (e instanceof SequenceStartEvent) {
        sequence(path);
      }
    }

    private void mapping(String path) {
      Map<String, Integer> keys = new HashMap<>();
      for (Event k = events.next(); !k.is(Event.ID.MappingEnd); k = events.next()) {
        if (!(k instanceof ScalarEvent key)) {
          String kind =
              k instanceof AliasEvent a
                  ? "*" + a.getAnchor()
                  : k instanceof SequenceStartEvent ? "a list" : "a mapping";
          throw new JobSpecException(
              path.isEmpty() ? "job" : path, kind, "has a key that is not a plain string", line(k));
        }
        String name = key.getValue();
        String child = path.isEmpty() ? name : path + "." + name;
        if (name.equals("<<") && key.isPlain()) {
          throw new JobSpecException(
              child,
              "<<",
              "merge keys are not part of the job language: write each field out",
              line(k));
        }
        Integer first = keys.putIfAbsent(name, line(k));
        if (first != null) {
          throw new JobSpecException(
              child,
              name,
              "is given twice in one mapping, on lines " + first + " and " + line(k),
              line(k));
        }
        value(events.next(), child);
      }
    }

    private void sequence(String path) {
      int i = 0;
      for (Event v = events.next(); !v.is(Event.ID.SequenceEnd); v = events.next()) {
        value(v, path + "[" + i++ + "]");
      }
    }
  }

  private static int line(Event e) {
    return e.getStartMark() == null ? 0 : e.getStartMark().getLine() + 1;
  }

  /** The text of line {@code line} (1-based) of {@code text}, for a message. */
  private static String lineText(String text, int line) {
    if (line <= 0) {
      return null;
    }
    String[] all = text.split("\r\n|\r|\n", -1);
    return line <= all.length ? all[line - 1] : null;
  }
}
