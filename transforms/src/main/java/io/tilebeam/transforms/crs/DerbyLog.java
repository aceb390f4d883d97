package io.tilebeam.transforms.crs;

import java.io.OutputStream;

/**
 * Where Derby, the engine under SIS's EPSG database, writes its log. Without it Derby leaves a
 * {@code derby.log} in the user's working directory on every run; SIS reports database problems
 * through its own logging, so nothing is lost.
 */
public final class DerbyLog {

  /** The stream Derby writes to; named by the {@code derby.stream.error.field} property. */
  public static final OutputStream SINK = OutputStream.nullOutputStream();

  private DerbyLog() {}

  /**
   * Points Derby at {@link #SINK} unless the user chose a log already. Called before anything of
   * SIS's that may start the EPSG database: CRS resolution, and reading a GeoTIFF's CRS.
   */
  public static void install() {
    if (System.getProperty("derby.stream.error.field") == null
        && System.getProperty("derby.stream.error.file") == null) {
      System.setProperty("derby.stream.error.field", DerbyLog.class.getName() + ".SINK");
    }
  }
}
