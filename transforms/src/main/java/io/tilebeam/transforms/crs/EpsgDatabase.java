package io.tilebeam.transforms.crs;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.apache.derby.jdbc.BasicEmbeddedDataSource40;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens SIS's EPSG database from an uncompressed copy. The database ships inside a jar as
 * compressed entries, and Derby reads its pages at random: every read inflates an entry from its
 * start, which makes the first CRS look-up of a process take seconds. An uncompressed (stored) copy
 * of the same entries, kept beside the jar, is read directly. Derby opens a database inside a jar
 * read-only, so any number of processes can share the copy.
 *
 * <p>The copy is named after a digest of the entries' names, sizes and CRCs, so a new SIS or EPSG
 * version gets a new copy. Anything that goes wrong leaves SIS on its own default: correct, slower.
 * The {@link CrsMemo} of planning's facts is kept in the same directory.
 */
public final class EpsgDatabase {

  private static final Logger LOG = LoggerFactory.getLogger(EpsgDatabase.class);
  private static final String ROOT = "SIS-DATA/";
  private static final String DATABASE = ROOT + "Databases/SpatialMetadata";

  private EpsgDatabase() {}

  /**
   * Points SIS at a stored copy of its database beside the jar that holds it, writing the copy
   * first if there is none. Must run before SIS's first look-up; returns whether the copy is in
   * use.
   */
  public static boolean useStoredCopy() {
    try {
      URL marker = EpsgDatabase.class.getResource("/" + DATABASE + "/service.properties");
      if (marker == null || !"jar".equals(marker.getProtocol())) {
        return false; // not running from a jar (tests on class directories): nothing to gain
      }
      Path source = Path.of(((JarURLConnection) marker.openConnection()).getJarFileURL().toURI());
      Path copy = storedCopy(source);
      BasicEmbeddedDataSource40 ds = new BasicEmbeddedDataSource40();
      ds.setDatabaseName("jar:(" + copy.toAbsolutePath() + ")" + DATABASE);
      org.apache.sis.setup.Configuration.current().setDatabase(() -> ds);
      CrsMemo.persistIn(copy.getParent(), memoDigest(source, copy));
      return true;
    } catch (IOException | RuntimeException | java.net.URISyntaxException e) {
      LOG.debug("Using SIS's own EPSG database: {}", e.toString());
      return false;
    }
  }

  /**
   * The stored copy of {@code sourceJar}'s database entries, beside it, written first when absent.
   *
   * @throws IOException when the jar cannot be read or the copy written
   */
  static Path storedCopy(Path sourceJar) throws IOException {
    // Finding the entries walks the whole jar's directory (80,000 entries, a tenth of a second of
    // every command's start): the copy found for this very jar file is remembered beside it.
    String identity = fileIdentity(sourceJar);
    Path index = sourceJar.resolveSibling(sourceJar.getFileName() + ".epsg");
    Path known = knownCopy(index, identity);
    if (known != null) {
      return known;
    }
    try (ZipFile jar = new ZipFile(sourceJar.toFile())) {
      List<ZipEntry> entries = databaseEntries(jar);
      if (entries.isEmpty()) {
        throw new IOException(sourceJar + " holds no " + ROOT + " entries");
      }
      Path copy = sourceJar.resolveSibling("tilebeam-epsg-" + digest(entries) + ".jar");
      if (!Files.isRegularFile(copy)) {
        writeStored(jar, entries, copy);
      }
      remember(index, identity + " " + copy.getFileName());
      return copy;
    }
  }

  /** A file's size and modification time: a jar rebuilt in place gets another. */
  private static String fileIdentity(Path file) throws IOException {
    return Files.size(file) + ":" + Files.getLastModifiedTime(file).toMillis();
  }

  /** The copy {@code index} names for a jar of this size and time, if it is there; else null. */
  private static Path knownCopy(Path index, String identity) {
    try {
      String[] line = Files.readString(index, java.nio.charset.StandardCharsets.UTF_8).split(" ");
      if (line.length == 2 && line[0].equals(identity) && line[1].startsWith("tilebeam-epsg-")) {
        Path copy = index.resolveSibling(line[1].strip());
        return Files.isRegularFile(copy) ? copy : null;
      }
    } catch (IOException | RuntimeException e) {
      // No index, or not ours: the jar is read.
    }
    return null;
  }

  /** Writes the index whole; a failure only costs the next start a walk of the jar. */
  private static void remember(Path index, String line) {
    try {
      WholeFiles.write(
          index, out -> out.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (IOException | RuntimeException e) {
      LOG.debug("Not indexing the EPSG copy in {}: {}", index, e.toString());
    }
  }

  /**
   * Names the CRS memo of this jar, this SIS, this database and tilebeam's own code: the facts it
   * keeps are computed by all of them. The database's jar is tilebeam's own only where tilebeam
   * runs from its shaded jar; where SIS's data sits in a jar of its own (a classpath of Maven's
   * jars, tests), a memo named after that jar alone would outlive the tilebeam that wrote it, and a
   * new build would read facts an older one computed, or wrote in another form.
   */
  private static String memoDigest(Path jar, Path copy) throws IOException {
    String identity =
        jar.toAbsolutePath()
            + ":"
            + fileIdentity(jar)
            + "\n"
            + copy.getFileName()
            + "\n"
            + org.apache.sis.util.Version.SIS
            + "\n"
            + codeIdentity(codeLocations());
    java.security.MessageDigest d = io.tilebeam.transforms.digest.Sha256.create();
    return HexFormat.of()
        .formatHex(d.digest(identity.getBytes(java.nio.charset.StandardCharsets.UTF_8)), 0, 8);
  }

  /**
   * Where tilebeam's classes are loaded from: every jar or class directory that holds {@code
   * io/tilebeam/}, and this class's own.
   */
  private static List<Path> codeLocations() throws IOException {
    java.util.Set<Path> out = new java.util.TreeSet<>();
    ClassLoader loader = EpsgDatabase.class.getClassLoader();
    try {
      Enumeration<URL> packages = loader.getResources("io/tilebeam/");
      while (packages.hasMoreElements()) {
        URL u = packages.nextElement();
        if ("jar".equals(u.getProtocol())) {
          out.add(Path.of(((JarURLConnection) u.openConnection()).getJarFileURL().toURI()));
        } else if ("file".equals(u.getProtocol())) {
          out.add(Path.of(u.toURI()).getParent().getParent());
        }
      }
      URL own = EpsgDatabase.class.getProtectionDomain().getCodeSource().getLocation();
      out.add(Path.of(own.toURI()));
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      throw new IOException("cannot tell where tilebeam's classes are: " + e.getMessage(), e);
    }
    return List.copyOf(out);
  }

  /**
   * The identity of the code at {@code locations}: each jar's size and time, each class directory's
   * files' count, total size and latest time (a rebuild changes them), in order.
   */
  static String codeIdentity(List<Path> locations) throws IOException {
    StringBuilder out = new StringBuilder();
    for (Path at : locations) {
      out.append(at.toAbsolutePath()).append(':');
      if (Files.isDirectory(at)) {
        long[] files = new long[3];
        try (java.util.stream.Stream<Path> all = Files.walk(at)) {
          for (Path f : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
            files[0]++;
            files[1] += Files.size(f);
            files[2] = Math.max(files[2], Files.getLastModifiedTime(f).toMillis());
          }
        }
        out.append(files[0]).append(':').append(files[1]).append(':').append(files[2]);
      } else {
        out.append(fileIdentity(at));
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static List<ZipEntry> databaseEntries(ZipFile jar) {
    List<ZipEntry> out = new ArrayList<>();
    Enumeration<? extends ZipEntry> all = jar.entries();
    while (all.hasMoreElements()) {
      ZipEntry e = all.nextElement();
      if (e.getName().startsWith(ROOT)) {
        out.add(e);
      }
    }
    out.sort(java.util.Comparator.comparing(ZipEntry::getName));
    return out;
  }

  private static String digest(List<ZipEntry> entries) {
    java.security.MessageDigest d = io.tilebeam.transforms.digest.Sha256.create();
    for (ZipEntry e : entries) {
      d.update(
          (e.getName() + ":" + e.getSize() + ":" + e.getCrc() + "\n")
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return HexFormat.of().formatHex(d.digest(), 0, 8);
  }

  /** Writes the entries uncompressed, whole (see {@link WholeFiles}). */
  private static void writeStored(ZipFile jar, List<ZipEntry> entries, Path copy)
      throws IOException {
    WholeFiles.write(
        copy,
        file -> {
          try (ZipOutputStream zip = new ZipOutputStream(file)) {
            zip.setMethod(ZipOutputStream.STORED);
            for (ZipEntry e : entries) {
              byte[] bytes = e.isDirectory() ? new byte[0] : read(jar, e);
              ZipEntry stored = new ZipEntry(e.getName());
              CRC32 crc = new CRC32();
              crc.update(bytes);
              stored.setMethod(ZipEntry.STORED);
              stored.setSize(bytes.length);
              stored.setCompressedSize(bytes.length);
              stored.setCrc(crc.getValue());
              zip.putNextEntry(stored);
              zip.write(bytes);
              zip.closeEntry();
            }
          }
        });
  }

  private static byte[] read(ZipFile jar, ZipEntry e) throws IOException {
    try (InputStream in = jar.getInputStream(e)) {
      return in.readAllBytes();
    }
  }
}
