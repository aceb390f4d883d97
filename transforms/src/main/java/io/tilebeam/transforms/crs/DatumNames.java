package io.tilebeam.transforms.crs;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.sis.referencing.CRS;
import org.opengis.referencing.AuthorityFactory;
import org.opengis.referencing.datum.DatumAuthorityFactory;
import org.opengis.referencing.datum.GeodeticDatum;
import org.opengis.util.FactoryException;
import org.opengis.util.GenericName;

/**
 * Maps the datum names other tools write (ESRI's {@code D_WGS_1984}, {@code D_RGF_1993}, …) to the
 * EPSG datum they mean, by comparing normalised names with the EPSG names and aliases: case,
 * accents, punctuation, a {@code D_} prefix, the word "datum", a trailing "v1" and the century of a
 * year are ignored ({@code D_WGS_1984} and {@code WGS 84} are both {@code wgs84}).
 *
 * <p>SIS matches a WKT against the EPSG database only when its datum name is one EPSG knows; with
 * the name rewritten, the rest of the definition is matched and then checked point by point. The
 * index is built from the EPSG database on first use (a few seconds, once per JVM), and only for a
 * WKT that carries no authority code.
 */
final class DatumNames {

  private static final Pattern WKT_DATUM = Pattern.compile("(DATUM\\s*\\[\\s*\")([^\"]*)(\")");
  private static final Pattern CENTURY = Pattern.compile("(?<![0-9])(19|20)([0-9]{2})(?![0-9])");
  private static volatile Map<String, List<String>> index;

  private DatumNames() {}

  /** The most candidates tried for one datum name: real names match one to three. */
  private static final int MAX_CANDIDATES = 8;

  /**
   * The WKT with its datum renamed to each EPSG datum its name matches, in EPSG code order; empty
   * when the WKT names no datum or none matches.
   */
  static List<String> rewrite(String wkt) {
    Matcher m = WKT_DATUM.matcher(wkt);
    if (!m.find()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String epsgName : index().getOrDefault(normalise(m.group(2)), List.of())) {
      if (!epsgName.equals(m.group(2)) && out.size() < MAX_CANDIDATES) {
        out.add(
            wkt.substring(0, m.start(2))
                + epsgName.replace("\"", "\"\"")
                + wkt.substring(m.end(2)));
      }
    }
    return out;
  }

  static String normalise(String name) {
    String s = Normalizer.normalize(name, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
    s = s.toLowerCase(Locale.ROOT);
    if (s.startsWith("d_")) {
      s = s.substring(2);
    }
    s = s.replaceAll("\\bdatum\\b", " ").replaceAll("\\bv1$", " ");
    s = CENTURY.matcher(s).replaceAll("$2");
    return s.replaceAll("[^a-z0-9]", "");
  }

  private static Map<String, List<String>> index() {
    Map<String, List<String>> i = index;
    if (i == null) {
      synchronized (DatumNames.class) {
        i = index;
        if (i == null) {
          i = build();
          index = i;
        }
      }
    }
    return i;
  }

  private static Map<String, List<String>> build() {
    Map<String, List<String>> out = new HashMap<>();
    try {
      DatumAuthorityFactory factory = (DatumAuthorityFactory) CRS.getAuthorityFactory("EPSG");
      List<String> codes =
          new ArrayList<>(((AuthorityFactory) factory).getAuthorityCodes(GeodeticDatum.class));
      codes.sort(Comparator.comparingLong(DatumNames::numeric));
      for (String code : codes) {
        GeodeticDatum datum;
        try {
          datum = factory.createGeodeticDatum(code);
        } catch (FactoryException | RuntimeException e) {
          continue; // a datum SIS cannot build is not one a WKT can be matched to
        }
        // SIS's WKT reader names an ensemble's datum without the word; so do we.
        String name = datum.getName().getCode().replaceAll("\\s+ensemble$", "");
        add(out, normalise(datum.getName().getCode()), name);
        for (GenericName alias : datum.getAlias()) {
          add(out, normalise(alias.toString()), name);
        }
      }
    } catch (FactoryException | ClassCastException e) {
      // Without the EPSG database there is nothing to match against.
    }
    out.replaceAll((k, v) -> List.copyOf(v));
    return Map.copyOf(out);
  }

  private static void add(Map<String, List<String>> out, String key, String name) {
    List<String> names = out.computeIfAbsent(key, k -> new ArrayList<>());
    if (!names.contains(name)) {
      names.add(name);
    }
  }

  private static long numeric(String code) {
    try {
      return Long.parseLong(code.replaceAll("^.*:", ""));
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }
}
