package io.tilebeam.transforms.outcome;

import io.tilebeam.transforms.digest.CanonicalJson;
import java.io.Serializable;

/**
 * One source feature that could not be used, the dead-letter record of a feature: bad data in one
 * feature costs that feature, never its tile or the run.
 *
 * @param layer the tilebeam layer
 * @param featureId the feature's id, or where it stands in the source when it has none
 * @param tile {@code z/x/y} of the tile being rendered, or empty when the feature failed while the
 *     source was read
 * @param errorClass a stable category: {@code geometry} (unreadable or beyond repair), {@code
 *     transform} (a coordinate the CRS operation cannot compute)
 * @param reason what was wrong, with the value where there is one
 */
public record FeatureFailure(
    String layer, String featureId, String tile, String errorClass, String reason)
    implements Serializable, Comparable<FeatureFailure> {

  /** The record as one line of canonical JSON (sorted members), as the dead-letter file holds. */
  public String toJsonLine() {
    StringBuilder s = new StringBuilder("{\"errorClass\":");
    CanonicalJson.appendString(s, errorClass);
    CanonicalJson.appendString(s.append(",\"featureId\":"), featureId);
    CanonicalJson.appendString(s.append(",\"layer\":"), layer);
    CanonicalJson.appendString(s.append(",\"reason\":"), reason);
    CanonicalJson.appendString(s.append(",\"tile\":"), tile);
    return s.append('}').toString();
  }

  @Override
  public int compareTo(FeatureFailure o) {
    return toJsonLine().compareTo(o.toJsonLine());
  }
}
