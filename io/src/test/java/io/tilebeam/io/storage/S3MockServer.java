package io.tilebeam.io.storage;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real S3-compatible server for tests: Adobe's S3Mock ({@code com.adobe.testing:s3mock}, its
 * executable jar copied to {@code target/s3mock} by the build), started in a JVM of its own on a
 * free loopback port, its objects in a temporary directory. It implements the S3 REST API with
 * conditional writes ({@code If-None-Match: *}, {@code If-Match}), multipart uploads and SHA-256
 * checksums; it does not check signatures, so {@link S3FaultProxy} stands in front of it where a
 * test needs credentials refused.
 */
public final class S3MockServer implements AutoCloseable {

  /** The access key the tests sign with; S3Mock accepts any. */
  public static final String ACCESS_KEY = "tilebeam-test";

  private final Process process;
  private final int port;
  private final Path root;

  private S3MockServer(Process process, int port, Path root) {
    this.process = process;
    this.port = port;
    this.root = root;
  }

  /**
   * Starts a server holding the buckets {@code buckets}; waits until it answers (about 5 s).
   *
   * @throws IOException when the jar is missing or the server does not come up in 60 s
   */
  public static S3MockServer start(String... buckets) throws IOException {
    Path jar = jar();
    int port = freePort();
    Path root = Files.createTempDirectory("s3mock");
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(
        List.of(
            "-Xmx512m",
            "-XX:TieredStopAtLevel=1",
            "-jar",
            jar.toString(),
            "--http.port=" + port,
            "--server.port=0",
            "--server.address=127.0.0.1",
            "--com.adobe.testing.s3mock.store.root=" + root,
            "--com.adobe.testing.s3mock.store.retain-files-on-exit=false",
            "--com.adobe.testing.s3mock.max-payload-size=512MB",
            "--com.adobe.testing.s3mock.store.initial-buckets=" + String.join(",", buckets),
            "--logging.level.root=WARN"));
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(root.resolveSibling(root.getFileName() + ".log").toFile())
            .start();
    S3MockServer server = new S3MockServer(p, port, root);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IOException("S3Mock exited with " + p.exitValue() + "; see " + server.log());
      }
      if (answers(port)) {
        return server;
      }
      sleep(100);
    }
    server.close();
    throw new IOException("S3Mock did not answer on port " + port + " within 60 s");
  }

  private static Path jar() throws IOException {
    for (Path dir : List.of(Path.of("target/s3mock"), Path.of("../io/target/s3mock"))) {
      Path jar = dir.resolve("s3mock-exec.jar");
      if (Files.isRegularFile(jar)) {
        return jar.toAbsolutePath();
      }
    }
    throw new IOException("target/s3mock/s3mock-exec.jar is missing: run the tests through Maven");
  }

  private static boolean answers(int port) {
    // S3Mock binds the port only when its web server is up; a plain ListBuckets then answers.
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      s.getOutputStream()
          .write(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes());
      return s.getInputStream().read() >= 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** A free loopback port. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The server's port. */
  public int port() {
    return port;
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** The server's log file. */
  public Path log() {
    return root.resolveSibling(root.getFileName() + ".log");
  }

  /** Settings that reach this server, path-style, with short retry waits. */
  public S3Settings settings() {
    return settings(endpoint());
  }

  /** Settings for {@code endpoint} (this server, or a proxy in front of it). */
  public static S3Settings settings(String endpoint) {
    return new S3Settings(
        endpoint,
        "us-east-1",
        true,
        new RetryPolicy(8, Duration.ofMillis(5), Duration.ofMillis(50), Duration.ofSeconds(30)));
  }

  /**
   * Credentials for the SDK's default chain in this JVM (system properties, read by every client it
   * opens), as a process would have them.
   */
  public static void useTestCredentials() {
    System.setProperty("aws.accessKeyId", ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", "tilebeam-test-secret");
    System.setProperty("aws.region", "us-east-1");
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
