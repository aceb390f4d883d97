package io.tilebeam.transforms.crs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EpsgDatabaseTest {

  @TempDir Path dir;

  private Path jar(String name, String content) throws Exception {
    Path jar = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(jar);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("SIS-DATA/"));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("SIS-DATA/Databases/page.dat"));
      zip.write(content.repeat(1000).getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("org/other/Thing.class"));
      zip.write(1);
      zip.closeEntry();
    }
    return jar;
  }

  @Test
  void theCopyHoldsTheDatabaseEntriesUncompressedAndIsNamedByTheirContent() throws Exception {
    Path copy = EpsgDatabase.storedCopy(jar("a.jar", "page "));
    try (ZipFile z = new ZipFile(copy.toFile())) {
      assertEquals(2, z.size(), "only the SIS-DATA entries");
      ZipEntry page = z.getEntry("SIS-DATA/Databases/page.dat");
      assertEquals(ZipEntry.STORED, page.getMethod());
      assertArrayEquals(
          "page ".repeat(1000).getBytes(StandardCharsets.UTF_8),
          z.getInputStream(page).readAllBytes());
    }
    // The same entries reuse the copy; other entries get another one.
    long written = Files.getLastModifiedTime(copy).toMillis();
    assertEquals(copy, EpsgDatabase.storedCopy(jar("b.jar", "page ")));
    assertEquals(written, Files.getLastModifiedTime(copy).toMillis());
    assertNotEquals(copy, EpsgDatabase.storedCopy(jar("c.jar", "other ")));
  }

  /**
   * The memo's name follows tilebeam's own code, not only the jar that holds SIS's data: where that
   * jar is not tilebeam's (a classpath of Maven's jars), a rebuilt class directory or jar of
   * tilebeam gives another identity, so no build reads facts another one wrote.
   */
  @Test
  void theCodeIdentityChangesWithEveryRebuildOfTheCode() throws Exception {
    Path classes = Files.createDirectories(dir.resolve("classes/io/tilebeam/x"));
    Path klass = Files.write(classes.resolve("A.class"), new byte[] {1, 2, 3});
    Path jar = jar("code.jar", "code ");
    List<Path> code = List.of(dir.resolve("classes"), jar);
    String first = EpsgDatabase.codeIdentity(code);
    assertEquals(first, EpsgDatabase.codeIdentity(code));
    // A class rewritten with the same size, later.
    Files.write(klass, new byte[] {1, 2, 4});
    Files.setLastModifiedTime(
        klass, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5000));
    String rewritten = EpsgDatabase.codeIdentity(code);
    assertNotEquals(first, rewritten);
    // A class added.
    Files.write(classes.resolve("B.class"), new byte[] {5});
    String added = EpsgDatabase.codeIdentity(code);
    assertNotEquals(rewritten, added);
    // The jar rebuilt.
    Files.setLastModifiedTime(
        jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5000));
    assertNotEquals(added, EpsgDatabase.codeIdentity(code));
  }

  @Test
  void theCopyFoundForAJarFileIsRememberedBesideItUntilTheJarChanges() throws Exception {
    Path jar = jar("a.jar", "page ");
    Path copy = EpsgDatabase.storedCopy(jar);
    Path index = dir.resolve("a.jar.epsg");
    String line = Files.readString(index, StandardCharsets.UTF_8).strip();
    assertTrue(line.endsWith(" " + copy.getFileName()), line);

    // The index is believed without reading the jar: pointed at another copy, that one is used.
    Path other = Files.copy(copy, dir.resolve("tilebeam-epsg-other.jar"));
    String identity = line.substring(0, line.indexOf(' '));
    Files.writeString(index, identity + " " + other.getFileName() + "\n", StandardCharsets.UTF_8);
    assertEquals(other, EpsgDatabase.storedCopy(jar));

    // A jar rebuilt in place (another time) is read again, and the index follows it.
    Files.setLastModifiedTime(
        jar,
        java.nio.file.attribute.FileTime.fromMillis(
            Files.getLastModifiedTime(jar).toMillis() + 5000));
    assertEquals(copy, EpsgDatabase.storedCopy(jar));
    assertTrue(
        Files.readString(index, StandardCharsets.UTF_8).strip().endsWith(" " + copy.getFileName()));

    // A copy named by the index but gone is not trusted.
    String now = Files.readString(index, StandardCharsets.UTF_8).strip();
    Files.writeString(
        index,
        now.substring(0, now.indexOf(' ')) + " tilebeam-epsg-gone.jar\n",
        StandardCharsets.UTF_8);
    assertEquals(copy, EpsgDatabase.storedCopy(jar));
  }

  @Test
  void derbyOpensTheCopyOfSissDatabaseReadOnly() throws Exception {
    URL marker = getClass().getResource("/SIS-DATA/Databases/SpatialMetadata/service.properties");
    Path sis = Path.of(((JarURLConnection) marker.openConnection()).getJarFileURL().toURI());
    Path jar = Files.copy(sis, dir.resolve("sis-embedded-data.jar"));
    Path copy = EpsgDatabase.storedCopy(jar);
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:derby:jar:(" + copy + ")SIS-DATA/Databases/SpatialMetadata");
        ResultSet tables = c.getMetaData().getTables(null, "EPSG", "%", null)) {
      assertTrue(tables.next(), "the EPSG schema has tables");
    }
  }
}
