package io.tilebeam.io.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.transforms.digest.CanonicalJson;
import java.util.Collection;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Dead-letter records folded so that a feature that fails the same way in many tiles is one record
 * listing its tiles ({@code "tiles": [...]}, sorted), not one record per tile. Records that differ
 * in anything but their tile stay apart; a record of one tile keeps its {@code "tile"} field. Tile
 * failure records name their own work key, so they never fold. Folding is idempotent and order
 * free: the fold of a file and new records is the same whichever came first.
 */
final class DeadLetterRecords {

  private DeadLetterRecords() {}

  /**
   * What a store holding {@code existing} records holds once {@code lines} are added: their union,
   * folded. Equal to {@code existing} when the lines bring nothing new.
   */
  static SortedSet<String> merge(Collection<String> existing, Collection<String> lines) {
    SortedSet<String> union = new TreeSet<>(existing);
    union.addAll(lines);
    return fold(union);
  }

  /** The records of {@code lines}, folded; a line that is not a JSON object stays as it is. */
  static SortedSet<String> fold(Collection<String> lines) {
    Map<String, SortedSet<String>> tilesOf = new TreeMap<>();
    Map<String, ObjectNode> rest = new TreeMap<>();
    SortedSet<String> out = new TreeSet<>();
    for (String line : lines) {
      JsonNode node;
      try {
        node = CanonicalJson.parse(line);
      } catch (IllegalArgumentException e) {
        out.add(line);
        continue;
      }
      if (!(node instanceof ObjectNode record) || !(record.has("tile") || record.has("tiles"))) {
        out.add(line);
        continue;
      }
      SortedSet<String> tiles = new TreeSet<>();
      JsonNode one = record.remove("tile");
      if (one != null) {
        tiles.add(one.asText());
      }
      JsonNode many = record.remove("tiles");
      if (many != null) {
        many.forEach(t -> tiles.add(t.asText()));
      }
      String key = CanonicalJson.write(record);
      rest.putIfAbsent(key, record);
      tilesOf.computeIfAbsent(key, k -> new TreeSet<>()).addAll(tiles);
    }
    tilesOf.forEach(
        (key, tiles) -> {
          ObjectNode record = rest.get(key).deepCopy();
          if (tiles.size() <= 1) {
            record.put("tile", tiles.isEmpty() ? "" : tiles.first());
          } else {
            ArrayNode list = record.putArray("tiles");
            tiles.forEach(list::add);
          }
          out.add(CanonicalJson.write(record));
        });
    return out;
  }
}
