package io.tilebeam.codec.parquet;

import java.io.IOException;

/**
 * A column chunk whose bytes were read but cannot be decoded (a damaged or lying page), as opposed
 * to bytes that could not be read: the file, not the storage, is at fault, and reading it again
 * cannot help.
 */
public final class CorruptParquetException extends IOException {
  private static final long serialVersionUID = 1L;

  CorruptParquetException(String message, Throwable cause) {
    super(message, cause);
  }
}
