package io.tilebeam.io.source;

import io.tilebeam.io.storage.Stores;
import java.io.IOException;
import java.util.Set;

/**
 * A format whose sources are files, local or on GCS: finding the file, pinning it, and naming
 * {@code source.uri} when it is missing or not of the format are the same for all of them.
 */
abstract class FileSourceFormat extends SourceFormat {

  /** A file format; see {@link SourceFormat#SourceFormat}. */
  FileSourceFormat(String name, Set<String> fields, Set<String> limitFields, String impliedCrs) {
    super(name, fields, limitFields, impliedCrs);
  }

  @Override
  public final LayerSource resolve(String uri, SourceOptions options, Stores stores)
      throws IOException {
    SourceFile file;
    try {
      file = SourceFile.resolve(uri, stores);
    } catch (IllegalArgumentException e) {
      throw new SourceFieldException("uri", uri, e.getMessage(), e);
    }
    try {
      return resolve(file, options);
    } catch (SourceFormatException e) {
      throw new SourceFieldException("uri", uri, e.getMessage(), e);
    }
  }

  /**
   * Checks and identifies the file found.
   *
   * @throws SourceFormatException when it is not a whole file of this format
   * @throws SourceFieldException naming another field that cannot be used
   * @throws IOException when it cannot be read
   */
  abstract LayerSource resolve(SourceFile file, SourceOptions options) throws IOException;

  /** The identity of {@code file} with what of {@code options} decides the features read. */
  static String identity(SourceFile file, SourceOptions options) throws IOException {
    return file.identity() + options.identitySuffix();
  }
}
