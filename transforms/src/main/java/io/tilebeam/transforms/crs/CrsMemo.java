package io.tilebeam.transforms.crs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What planning learns from SIS's EPSG database, remembered across processes: a CRS spelling's
 * identity, whether a CRS is geographic, a job extent in a tile matrix set's CRS. Each is a pure
 * function of its key and of the SIS and EPSG versions, and each costs the first command of a
 * process seconds (Derby compiles SIS's SQL in a cold JVM), while a rerun of finished work has
 * nothing else that slow to do.
 *
 * <p>Facts are kept in memory always, and in a file beside the jar when {@link #persistIn} named
 * one (the CLI does, from {@link EpsgDatabase#useStoredCopy}). The file's name holds a digest of
 * the jar, SIS's version and the EPSG database, so a new build or a new database starts an empty
 * memo (the memos of the few builds before it stay, the older are removed). A file that cannot be
 * read is ignored and one that cannot be written is not written: the memo only ever saves time, a
 * lost fact is computed again. Values are written by their callers in exact forms (doubles as their
 * bits), so a remembered fact equals the computed one.
 *
 * <p>The command line also keeps here another fact of the same kind (a function of the jar and of
 * its key alone): that a list of Beam options was found valid.
 */
public final class CrsMemo {

  private static final Logger LOG = LoggerFactory.getLogger(CrsMemo.class);
  private static final String PREFIX = "tilebeam-crs-memo-";
  private static final Map<String, String> FACTS = new HashMap<>();

  /**
   * Memos of other builds kept beside a new one, the most recently written first: two builds run in
   * turn from one classpath (two checkouts sharing Maven's copy of SIS's data) each keep theirs,
   * where removing every other memo made each recompute its facts after the other had run.
   */
  static final int OTHERS_KEPT = 3;

  private static Path file;

  private CrsMemo() {}

  /**
   * Persists facts in {@code dir}, in a file named after {@code digest}, and loads the facts it
   * holds; when there is none yet, memo files of other digests there (other builds') are removed
   * but the {@link #OTHERS_KEPT} most recently written.
   */
  public static synchronized void persistIn(Path dir, String digest) {
    file = dir.resolve(PREFIX + digest + ".properties");
    if (Files.isRegularFile(file)) {
      FACTS.putAll(read(file));
    } else {
      // A new build: the old builds' memos are looked for once, not on every start.
      removeOthers(dir, file);
    }
  }

  /**
   * The fact under {@code key}: remembered, or computed by {@code compute} and remembered. A
   * computation that throws remembers nothing.
   */
  public static String get(String key, Supplier<String> compute) {
    synchronized (CrsMemo.class) {
      String known = FACTS.get(key);
      if (known != null) {
        return known;
      }
    }
    String value = compute.get();
    synchronized (CrsMemo.class) {
      if (!value.equals(FACTS.put(key, value)) && file != null) {
        write();
      }
    }
    return value;
  }

  /**
   * A double as a fact writes it: the hex of its bits, exact, unlike a decimal that only reads back
   * to it.
   */
  public static String exact(double v) {
    return Long.toHexString(Double.doubleToRawLongBits(v));
  }

  /** The double {@link #exact} wrote. */
  private static double fromExact(String hex) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(hex, 16));
  }

  /** A box {minX, minY, maxX, maxY} as a fact writes it: four {@link #exact} forms, by commas. */
  public static String exactBox(double minX, double minY, double maxX, double maxY) {
    return exact(minX) + "," + exact(minY) + "," + exact(maxX) + "," + exact(maxY);
  }

  /**
   * The box {minX, minY, maxX, maxY} that {@link #exactBox} wrote.
   *
   * @throws IllegalArgumentException when {@code text} is not four exact forms
   */
  public static double[] fromExactBox(String text) {
    String[] parts = text.split(",", -1);
    if (parts.length != 4) {
      throw new IllegalArgumentException("not a box: " + text);
    }
    double[] box = new double[4];
    for (int i = 0; i < 4; i++) {
      box[i] = fromExact(parts[i]);
    }
    return box;
  }

  /**
   * The fact under {@code key} as {@code read} makes it of its text: remembered, or computed by
   * {@code compute} and remembered. A remembered text that {@code read} refuses (a memo edited or
   * damaged by hand) is logged, computed again and replaced, never trusted or left to fail the run.
   */
  public static <T> T get(String key, Supplier<String> compute, Function<String, T> read) {
    String known = known(key);
    if (known != null) {
      try {
        return read.apply(known);
      } catch (RuntimeException e) {
        LOG.warn(
            "The remembered fact {} does not read ({}): computed again",
            key.replace('\u0000', ' '),
            e.toString());
        synchronized (CrsMemo.class) {
          FACTS.remove(key, known);
        }
      }
    }
    return read.apply(get(key, compute));
  }

  /** A flag as {@link #get(String, Supplier, Function)} reads it: only "true" or "false". */
  public static boolean flag(String text) {
    return switch (text) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("not a flag: " + text);
    };
  }

  /** The fact under {@code key} when it is remembered; else null. */
  public static synchronized String known(String key) {
    return FACTS.get(key);
  }

  /** Forgets every fact in memory and stops persisting (for tests). */
  static synchronized void reset() {
    FACTS.clear();
    file = null;
  }

  /** Writes the facts, merged with those another process may have added, whole. */
  private static void write() {
    Map<String, String> merged = read(file);
    merged.putAll(FACTS);
    FACTS.putAll(merged);
    Properties p = new Properties();
    p.putAll(merged);
    try {
      WholeFiles.write(
          file, out -> p.store(out, "tilebeam: facts from SIS's EPSG database; safe to delete"));
    } catch (IOException | RuntimeException e) {
      LOG.debug("Not remembering CRS facts in {}: {}", file, e.toString());
    }
  }

  private static Map<String, String> read(Path from) {
    Map<String, String> out = new HashMap<>();
    if (!Files.isRegularFile(from)) {
      return out;
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(from)) {
      p.load(in);
    } catch (IOException | RuntimeException e) {
      LOG.debug("Ignoring the CRS memo {}: {}", from, e.toString());
      return out;
    }
    p.forEach((k, v) -> out.put((String) k, (String) v));
    return out;
  }

  private static void removeOthers(Path dir, Path keep) {
    List<Path> others = new ArrayList<>();
    Map<Path, FileTime> written = new HashMap<>();
    try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, PREFIX + "*.properties")) {
      for (Path p : old) {
        if (!p.equals(keep)) {
          others.add(p);
          written.put(p, Files.getLastModifiedTime(p));
        }
      }
      // The newest first; among equal times by name, so every process removes the same ones.
      others.sort(
          Comparator.comparing((Path p) -> written.get(p))
              .reversed()
              .thenComparing(Comparator.naturalOrder()));
      for (Path p : others.subList(Math.min(OTHERS_KEPT, others.size()), others.size())) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Old CRS memos stay in {}: {}", dir, e.toString());
    }
  }
}
