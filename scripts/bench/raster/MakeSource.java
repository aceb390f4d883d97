import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the raster benchmark's source: a seeded SIZE × SIZE 8-bit image (sines of several
 * wavelengths and noise from a fixed LCG, 1 to 255; 0 is no data), raw with an ENVI header, for
 * gdal_translate to make a COG of. 8-bit because gdal2tiles.py, the tool compared with, takes
 * nothing else. Run with the java launcher: java MakeSource.java FILE.bil SIZE
 */
public class MakeSource {
  public static void main(String[] args) throws IOException {
    Path bil = Path.of(args[0]);
    int size = Integer.parseInt(args[1]);
    long seed = 42;
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(new FileOutputStream(bil.toFile()), 1 << 20))) {
      ByteBuffer row = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
      for (int j = 0; j < size; j++) {
        row.clear();
        for (int i = 0; i < size; i++) {
          seed = seed * 6364136223846793005L + 1442695040888963407L;
          int noise = (int) ((seed >>> 59) & 15);
          double v =
              128
                  + 70 * Math.sin(i / 700.0) * Math.cos(j / 530.0)
                  + 30 * Math.sin((i + 2 * j) / 97.0)
                  + 10 * Math.cos((3 * i - j) / 23.0);
          row.put((byte) Math.max(1, Math.min(255, (int) v + noise)));
        }
        out.write(row.array());
      }
    }
    Files.writeString(
        Path.of(args[0].replaceAll("\\.bil$", ".hdr")),
        "ENVI\nsamples = " + size + "\nlines = " + size + "\nbands = 1\nheader offset = 0\n"
            + "file type = ENVI Standard\ndata type = 1\ninterleave = bsq\nbyte order = 0\n");
  }
}
