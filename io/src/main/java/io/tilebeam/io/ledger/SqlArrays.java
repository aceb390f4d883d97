package io.tilebeam.io.ledger;

import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;

/** SQL arrays for {@code unnest(?::type[])}: how a whole batch travels in one statement. */
final class SqlArrays {

  private SqlArrays() {}

  static <T> Array of(Connection c, String type, List<T> items, Function<T, ?> f)
      throws SQLException {
    return c.createArrayOf(type, items.stream().map(f).toArray());
  }
}
