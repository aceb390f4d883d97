package io.tilebeam.io.source;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The source formats tilebeam reads: the one registration a new {@link SourceFormat} needs. */
public final class SourceFormats {

  /** Every format, in the order the documentation lists them. */
  public static final List<SourceFormat> ALL =
      List.of(
          new GeoJsonSourceFormat(),
          new GeoJsonSeqSourceFormat(),
          new FlatGeobufSourceFormat(),
          new GeoParquetSourceFormat(),
          new PostGisSourceFormat(),
          new GeoTiffSourceFormat());

  private SourceFormats() {}

  /** The format a job names, if tilebeam reads it. */
  public static Optional<SourceFormat> named(String name) {
    return ALL.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** The names of every format, sorted. */
  public static List<String> names() {
    return ALL.stream().map(SourceFormat::name).sorted().toList();
  }

  /** Every optional source field some format takes, in registration order. */
  public static Set<String> fields() {
    Set<String> all = new LinkedHashSet<>();
    ALL.forEach(f -> all.addAll(f.fields()));
    return all;
  }

  /** The names of the formats that take {@code field}, sorted. */
  public static List<String> taking(String field) {
    return ALL.stream()
        .filter(f -> f.fields().contains(field))
        .map(SourceFormat::name)
        .sorted()
        .toList();
  }
}
