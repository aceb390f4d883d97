package io.tilebeam.io.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tilebeam.io.postgres.PgConnections;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A ledger's URL and schema are checked when the config is made, not at the first statement. */
class LedgerConfigTest {

  @ParameterizedTest
  @CsvSource({
    "Tiles, is not a plain identifier",
    "tiles-2, is not a plain identifier",
    "pg_tiles, 'starts with pg_, which PostgreSQL keeps for itself'"
  })
  void schemasPostgreSqlWouldRefuseAreRefusedAtOnce(String schema, String why) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> LedgerConfig.of("jdbc:postgresql://127.0.0.1/x").withSchema(schema));
    assertEquals("ledger schema '" + schema + "' " + why, e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:postgresql://h/db?user=bob&password=secret&ssl=true"
            + "|jdbc:postgresql://h/db?user=bob&password=***&ssl=true",
        "jdbc:postgresql://bob:secret@h/db|jdbc:postgresql://bob:***@h/db",
        "jdbc:postgresql://h/db|jdbc:postgresql://h/db"
      })
  void passwordsAreMaskedInUrls(String url, String masked) {
    assertEquals(masked, PgConnections.mask(url));
  }
}
