package io.tilebeam.io.source;

import io.tilebeam.io.storage.Stores;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * One source format, everything tilebeam knows of it in one place: its name in a job, the source
 * fields it takes, the CRS it implies, how a source of it is found, checked and identified at
 * planning ({@link #resolve}), and, through the {@link LayerSource} that returns, whether it is
 * read once or per tile and how.
 *
 * <p>To add a format: write one subclass and register it in {@link SourceFormats#ALL}; the parser,
 * the planner and the reading stage ask the format, and name none.
 */
public abstract class SourceFormat {

  private final String name;
  private final Set<String> fields;
  private final Set<String> limitFields;
  private final String impliedCrs;

  /**
   * A format named {@code name} in jobs, taking the source {@code fields} and, of {@code limits},
   * the {@code limitFields}; {@code impliedCrs} is the CRS of a source that declares none and whose
   * job gives none, or null when the job must give one.
   */
  protected SourceFormat(
      String name, Set<String> fields, Set<String> limitFields, String impliedCrs) {
    this.name = name;
    this.fields = Set.copyOf(fields);
    this.limitFields = Set.copyOf(limitFields);
    this.impliedCrs = impliedCrs;
  }

  /** The name a job gives as {@code source.format}. */
  public final String name() {
    return name;
  }

  /** The source fields this format takes beside {@code uri}, {@code format} and {@code crs}. */
  public final Set<String> fields() {
    return fields;
  }

  /** The fields of {@code limits} this format takes; empty when it takes no limits. */
  public final Set<String> limitFields() {
    return limitFields;
  }

  /**
   * Checks the fields together, once parsed and before anything is read.
   *
   * @throws SourceFieldException naming the field (relative to {@code source}) that cannot be used
   */
  public void checkFields(SourceOptions options) {}

  /**
   * The CRS a source of this format has when it declares none and the job gives none (RFC 7946's
   * CRS84 for GeoJSON), or null when the job must give one.
   */
  public final String impliedCrs() {
    return impliedCrs;
  }

  /** Whether sources of this format hold pixels (a raster layer's) rather than features. */
  public boolean raster() {
    return false;
  }

  /** Where the CRS a source declares is found, for messages: relative to the layer. */
  public String declaredCrsField() {
    return "source.uri (the CRS it declares)";
  }

  /**
   * Finds, checks and identifies a source of this format: nothing is claimed or written yet.
   *
   * @param uri where the source is, as the job gives it
   * @param options the job's other source fields
   * @param stores how object stores (GCS, S3) are reached
   * @throws SourceFieldException naming the source field that cannot be used (the file is missing
   *     or not of this format, a column does not exist, ...)
   * @throws IOException when a source that was found cannot be read now (no fault of the job)
   */
  public abstract LayerSource resolve(String uri, SourceOptions options, Stores stores)
      throws IOException;

  /**
   * As {@link #resolve(String, SourceOptions, Stores)}, for the locations a job lists: one, or
   * several where the format makes a mosaic of them (raster formats).
   *
   * @throws SourceFieldException naming the source field that cannot be used
   * @throws IOException when a source that was found cannot be read now
   */
  public LayerSource resolve(List<String> uris, SourceOptions options, Stores stores)
      throws IOException {
    if (uris.size() != 1) {
      throw new SourceFieldException(
          "uri", String.join(", ", uris), "a list of sources is read only by raster formats", null);
    }
    return resolve(uris.get(0), options, stores);
  }
}
