package io.tilebeam.io.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Counts by zoom level (features left out of a zoom as smaller than its minimum size, pieces that
 * rounding collapsed), in the one shape the ledger stores, the progress line shows and the report
 * writes: zooms in order, zeros left out.
 *
 * @param counts the count of each zoom that has one
 */
public record ZoomCounts(SortedMap<Integer, Long> counts) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** No counts. */
  public static final ZoomCounts NONE = new ZoomCounts(new TreeMap<>());

  /** Copies the counts in zoom order, zeros left out. */
  public ZoomCounts {
    SortedMap<Integer, Long> kept = new TreeMap<>();
    counts.forEach(
        (z, n) -> {
          if (n != 0) {
            kept.put(z, n);
          }
        });
    counts = Collections.unmodifiableSortedMap(kept);
  }

  /** The counts of a map by zoom. */
  public static ZoomCounts of(Map<Integer, Long> byZoom) {
    return new ZoomCounts(new TreeMap<>(byZoom));
  }

  /**
   * The counts of the named counters that are {@code prefix} followed by a zoom ({@code
   * featuresBelowMinSize.z3}); other names are not looked at.
   */
  public static ZoomCounts ofCounters(Map<String, Long> byName, String prefix) {
    SortedMap<Integer, Long> out = new TreeMap<>();
    byName.forEach(
        (name, n) -> {
          if (name.startsWith(prefix)) {
            try {
              out.merge(Integer.parseInt(name.substring(prefix.length())), n, Long::sum);
            } catch (NumberFormatException e) {
              // Another counter that starts alike: not a count by zoom.
            }
          }
        });
    return new ZoomCounts(out);
  }

  /**
   * The counts of a JSON object such as {@code {"0": 30, "1": 22}}, as the ledger stores them; none
   * when null, blank or unreadable (progress is a best effort, it does not stop a run).
   */
  public static ZoomCounts fromJson(String json) {
    if (json == null || json.isBlank()) {
      return NONE;
    }
    SortedMap<Integer, Long> out = new TreeMap<>();
    try {
      JSON.readTree(json)
          .fields()
          .forEachRemaining(e -> out.put(Integer.parseInt(e.getKey()), e.getValue().asLong()));
    } catch (JsonProcessingException | NumberFormatException e) {
      return NONE;
    }
    return new ZoomCounts(out);
  }

  /** The counts as a JSON object keyed by zoom, {@code {"0":30,"1":22}}. */
  public ObjectNode toJsonNode() {
    ObjectNode o = JSON.createObjectNode();
    counts.forEach((z, n) -> o.put(String.valueOf(z), n));
    return o;
  }

  /** {@link #toJsonNode()} as text. */
  public String toJson() {
    return toJsonNode().toString();
  }

  /** Whether no zoom has a count. */
  public boolean isEmpty() {
    return counts.isEmpty();
  }

  /** The counts of every zoom added up. */
  public long total() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  /** {@code z0 30, z1 22}: the counts for a line of text. */
  public String describe() {
    StringBuilder s = new StringBuilder();
    counts.forEach(
        (z, n) -> s.append(s.length() > 0 ? ", " : "").append('z').append(z).append(' ').append(n));
    return s.toString();
  }
}
