package io.tilebeam.io.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs a test's Node.js script with the npm packages {@code scripts/setup.sh} installs into {@code
 * ~/.cache/tilebeam-npm} (or {@code $TILEBEAM_NPM}) on its {@code NODE_PATH}: the independent
 * readers and writers the tests check tilebeam's files against ({@code pmtiles}, {@code hyparquet},
 * {@code hyparquet-writer}).
 */
public final class NodeScripts {

  private NodeScripts() {}

  /** The folder holding {@code node_modules}. */
  public static Path packages() {
    return Path.of(
        System.getenv()
            .getOrDefault(
                "TILEBEAM_NPM",
                Path.of(System.getProperty("user.home"), ".cache", "tilebeam-npm").toString()));
  }

  /**
   * Copies the resource {@code script} of {@code owner}'s package into {@code dir} and runs it with
   * {@code args}; returns what it printed.
   *
   * @throws IOException when node is missing or the script fails (with its output)
   */
  public static String run(Class<?> owner, String script, Path dir, String... args)
      throws IOException, InterruptedException {
    Path copy = dir.resolve(script);
    if (!Files.exists(copy)) {
      try (InputStream in = owner.getResourceAsStream(script)) {
        if (in == null) {
          throw new IOException("no test resource " + script + " beside " + owner.getName());
        }
        Files.copy(in, copy);
      }
    }
    String[] command = new String[args.length + 2];
    command[0] = "node";
    command[1] = copy.toString();
    System.arraycopy(args, 0, command, 2, args.length);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("NODE_PATH", packages().resolve("node_modules").toString());
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new IOException("node is not installed; scripts/setup.sh installs it", e);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(
          script
              + " failed (scripts/setup.sh installs its npm packages into "
              + packages()
              + "): "
              + out);
    }
    return out;
  }
}
