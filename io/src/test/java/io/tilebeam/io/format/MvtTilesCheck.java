package io.tilebeam.io.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.operation.valid.IsValidOp;

/**
 * Checks every {@code .mvt} tile under a directory as a client would decode it: each polygon
 * feature valid by JTS's {@link IsValidOp}, rings wound as the MVT spec asks. The benchmark of real
 * coastlines runs it on all the tiles it wrote ({@code scripts/bench/mvt-countries.sh}); the same
 * check on the fixture countries is {@link MvtValidityTest}.
 *
 * <p>Usage: {@code java -cp pipeline/target/tilebeam.jar:io/target/test-classes
 * io.tilebeam.io.format.MvtTilesCheck DIR}. Prints what it checked; exits 1 when a tile breaks a
 * rule, naming the first few.
 */
public final class MvtTilesCheck {

  private static final int SHOWN = 10;

  private long tiles;
  private long features;
  private long polygons;
  private long rings;
  private long vertices;
  private long broken;

  private MvtTilesCheck() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: MvtTilesCheck DIR");
      System.exit(2);
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(Path.of(args[0]))) {
      files = walk.filter(p -> p.toString().endsWith(".mvt")).sorted().toList();
    }
    MvtTilesCheck check = new MvtTilesCheck();
    for (Path file : files) {
      check.tile(file);
    }
    System.out.printf(
        "MVT check: %,d tiles, %,d polygon features, %,d polygons, %,d rings, %,d vertices:"
            + " %,d broken%n",
        check.tiles, check.features, check.polygons, check.rings, check.vertices, check.broken);
    System.exit(check.tiles == 0 || check.broken > 0 ? 1 : 0);
  }

  private void tile(Path file) throws IOException {
    tiles++;
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length > 1 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
      try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
        bytes = in.readAllBytes();
      }
    }
    Map<String, Geometry> decoded;
    try {
      decoded = MvtDecoder.decode(bytes);
    } catch (IllegalArgumentException e) {
      problem(file + ": " + e.getMessage());
      return;
    }
    for (Map.Entry<String, Geometry> f : decoded.entrySet()) {
      Geometry g = f.getValue();
      if (g == null) {
        continue;
      }
      features++;
      for (int i = 0; i < g.getNumGeometries(); i++) {
        Polygon p = (Polygon) g.getGeometryN(i);
        polygons++;
        rings += 1 + p.getNumInteriorRing();
        // Without the closing point, as the tile stores them.
        vertices += p.getNumPoints() - 1 - p.getNumInteriorRing();
      }
      IsValidOp op = new IsValidOp(g);
      if (!op.isValid()) {
        problem(file + " feature " + f.getKey() + ": " + op.getValidationError());
      }
    }
  }

  private void problem(String message) {
    if (broken++ < SHOWN) {
      System.out.println("broken: " + message);
    }
  }
}
