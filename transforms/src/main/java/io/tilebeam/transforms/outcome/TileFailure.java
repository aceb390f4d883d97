package io.tilebeam.transforms.outcome;

import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;

/**
 * A tile that failed permanently: the dead-letter record. {@code errorClass} is a stable category
 * (for example {@code geometry}, {@code crs}, {@code source}), {@code message} the reason.
 */
public record TileFailure(WorkKey key, TileWork work, String errorClass, String message)
    implements TileOutcome {

  /** The record as one line of canonical JSON (sorted members), as the dead-letter file holds. */
  public String toJsonLine() {
    StringBuilder s = new StringBuilder("{\"errorClass\":");
    CanonicalJson.appendString(s, errorClass);
    CanonicalJson.appendString(s.append(",\"key\":"), key.value());
    CanonicalJson.appendString(s.append(",\"layer\":"), work.layer());
    CanonicalJson.appendString(s.append(",\"message\":"), message);
    CanonicalJson.appendString(s.append(",\"tile\":"), work.tile().path());
    return s.append('}').toString();
  }
}
