package io.tilebeam.pipeline.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line split in two: tilebeam's own flags ({@code --name value} or {@code
 * --name=value}) and everything else, which is handed to Beam as pipeline options.
 */
public final class Arguments {

  private final String command;
  private final Map<String, String> own;
  private final List<String> beam;

  private Arguments(String command, Map<String, String> own, List<String> beam) {
    this.command = command;
    this.own = own;
    this.beam = beam;
  }

  /**
   * Splits {@code args}; {@code flags} are tilebeam's valued flags, {@code switches} its boolean
   * ones.
   *
   * @throws UsageException when a flag has no value or appears twice
   */
  public static Arguments parse(String[] args, Set<String> flags, Set<String> switches) {
    if (args.length == 0) {
      throw new UsageException("no command given");
    }
    Map<String, String> own = new LinkedHashMap<>();
    List<String> beam = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (switches.contains(name)) {
        put(own, name, "true");
      } else if (flags.contains(name)) {
        String value;
        if (a.contains("=")) {
          value = a.substring(a.indexOf('=') + 1);
        } else if (i + 1 < args.length) {
          value = args[++i];
        } else {
          throw new UsageException(name + " needs a value");
        }
        put(own, name, value);
      } else {
        beam.add(a);
      }
    }
    return new Arguments(args[0], own, beam);
  }

  private static void put(Map<String, String> own, String name, String value) {
    if (own.put(name, value) != null) {
      throw new UsageException(name + " is given twice");
    }
  }

  /** The command, the first argument. */
  public String command() {
    return command;
  }

  /** The value of a flag, or null. */
  public String get(String flag) {
    return own.get(flag);
  }

  /** Whether a switch was given. */
  public boolean has(String flag) {
    return own.containsKey(flag);
  }

  /**
   * The value of a required flag.
   *
   * @throws UsageException when it is missing
   */
  public String require(String flag) {
    String v = own.get(flag);
    if (v == null || v.isBlank()) {
      throw new UsageException(flag + " is required");
    }
    return v;
  }

  /** The arguments for Beam. */
  public List<String> beamArgs() {
    return beam;
  }
}
