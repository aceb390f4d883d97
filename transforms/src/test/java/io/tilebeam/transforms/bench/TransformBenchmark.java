package io.tilebeam.transforms.bench;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.opengis.referencing.operation.MathTransform;

/**
 * SIS's transform throughput on the points of a text file, as {@code scripts/bench/transform.sh}
 * also feeds them to {@code cs2cs}. Args: the points file (one {@code lat lon} line each, EPSG:4326
 * axis order, as cs2cs reads it), the output file, source and target codes.
 *
 * <p>Prints two rates: the transform alone on in-memory arrays (best of 5 passes, after warm-up),
 * and file to file (parse, transform, format, write: what cs2cs's wall time covers).
 */
public final class TransformBenchmark {

  private TransformBenchmark() {}

  /** Runs the benchmark. */
  public static void main(String[] args) throws Exception {
    Path in = Path.of(args[0]);
    Path out = Path.of(args[1]);
    MathTransform transform =
        CrsTransforms.operation(CrsRef.of(args[2]), CrsRef.of(args[3])).getMathTransform();

    long fileStart = System.nanoTime();
    double[] xy = read(in);
    int n = xy.length / 2;
    double[] result = new double[xy.length];
    transform.transform(xy, 0, result, 0, n);
    write(out, result);
    double fileSeconds = (System.nanoTime() - fileStart) / 1e9;

    double best = Double.MAX_VALUE;
    for (int pass = 0; pass < 6; pass++) {
      long start = System.nanoTime();
      transform.transform(xy, 0, result, 0, n);
      double seconds = (System.nanoTime() - start) / 1e9;
      if (pass > 0) {
        best = Math.min(best, seconds);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "SIS %s -> %s, %d points: transform alone %.0f points/s (%.3f s);"
            + " file to file %.0f points/s (%.2f s)%n",
        args[2],
        args[3],
        n,
        n / best,
        best,
        n / fileSeconds,
        fileSeconds);
  }

  /** East/north pairs from {@code lat lon} lines. */
  private static double[] read(Path in) throws IOException {
    int lines = 0;
    try (BufferedReader r = Files.newBufferedReader(in, StandardCharsets.US_ASCII)) {
      while (r.readLine() != null) {
        lines++;
      }
    }
    double[] xy = new double[lines * 2];
    try (BufferedReader r = Files.newBufferedReader(in, StandardCharsets.US_ASCII)) {
      String line;
      int i = 0;
      while ((line = r.readLine()) != null) {
        int space = line.indexOf(' ');
        xy[i + 1] = Double.parseDouble(line.substring(0, space));
        xy[i] = Double.parseDouble(line.substring(space + 1).trim());
        i += 2;
      }
    }
    return xy;
  }

  private static void write(Path out, double[] xy) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.US_ASCII)) {
      StringBuilder line = new StringBuilder(64);
      for (int i = 0; i < xy.length; i += 2) {
        line.setLength(0);
        line.append(String.format(Locale.ROOT, "%.6f\t%.6f", xy[i], xy[i + 1])).append('\n');
        w.append(line);
      }
    }
  }
}
