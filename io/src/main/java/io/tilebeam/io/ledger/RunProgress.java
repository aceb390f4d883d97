package io.tilebeam.io.ledger;

import java.time.Duration;
import java.util.Locale;

/**
 * How far a run is, as its workers counted it in the ledger: tiles planned, claimed, skipped
 * (completed before, in flight elsewhere, failed before) and done (published or failed), and how
 * long it has been going. Counts are approximate under retries (a retried bundle counts again), so
 * shares are capped at 100%.
 *
 * @param planned tiles planned (0 when not yet recorded)
 * @param claimed tiles claimed so far
 * @param skipped tiles skipped so far
 * @param done tiles published or failed so far
 * @param elapsed time since the run started
 * @param featuresRead source features read so far
 * @param piecesCut tile pieces cut from them so far
 * @param belowMinSize by zoom, features left out of that zoom's tiles as smaller than the minimum
 *     size (zooms with none absent)
 */
public record RunProgress(
    long planned,
    long claimed,
    long skipped,
    long done,
    Duration elapsed,
    long featuresRead,
    long piecesCut,
    ZoomCounts belowMinSize) {

  /** Progress with nothing read or cut yet. */
  public RunProgress(long planned, long claimed, long skipped, long done, Duration elapsed) {
    this(planned, claimed, skipped, done, elapsed, 0, 0, ZoomCounts.NONE);
  }

  /**
   * One line for a log: where the run is, its rate since it started and, once every tile is claimed
   * or skipped and a hundredth of them is done, the time left at that rate.
   */
  public String describe() {
    return describe(0);
  }

  /**
   * One line for a log, the time left estimated at {@code recentRate} tiles/s (the rate since the
   * last line: planning and claiming do not slow it) when positive, else at the rate since the
   * start.
   */
  public String describe(double recentRate) {
    long work = Math.max(claimed, done);
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "%,d of %,d planned tiles looked up",
            Math.min(planned, claimed + skipped),
            planned));
    s.append(String.format(Locale.ROOT, " (%,d skipped, %,d claimed)", skipped, claimed));
    if (featuresRead > 0 || piecesCut > 0) {
      // Reading and cutting come before any tile is done: they show a big job moving.
      s.append(
          String.format(
              Locale.ROOT, "; %,d features read, %,d pieces cut", featuresRead, piecesCut));
    }
    if (!belowMinSize.isEmpty()) {
      // Features a zoom left out as smaller than its grid: a user sees which zooms lose how many.
      s.append("; features below the minimum size: ").append(belowMinSize.describe());
    }
    s.append(String.format(Locale.ROOT, "; %,d of %,d claimed done", Math.min(done, work), work));
    double seconds = elapsed.toMillis() / 1000.0;
    if (seconds > 0 && done > 0) {
      double rate = recentRate > 0 ? recentRate : done / seconds;
      s.append(String.format(Locale.ROOT, ", %.1f tiles/s", rate));
      // A few early tiles (the heavy low zooms come first) give a rate that says nothing about
      // the rest: no time left is guessed before a hundredth of the work is done.
      if (claimed + skipped >= planned && planned > 0 && done * 100 >= work) {
        long left = Math.max(0, work - done);
        s.append(", about ").append(duration(Math.round(left / rate))).append(" left");
      }
    }
    return s.toString();
  }

  private static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m" + String.format(Locale.ROOT, "%02d", seconds % 60) + "s";
    }
    return seconds / 3600 + "h" + String.format(Locale.ROOT, "%02d", seconds % 3600 / 60) + "m";
  }
}
