// Writes a Parquet file of every column kind tilebeam reads with DuckDB's own writer (the npm
// package @duckdb/node-api, found through NODE_PATH): N rows whose values follow from the row
// number i, so that a reader can check each one.
//   a INTEGER   i * 37 - 5000          b BIGINT  i * 1000000007
//   s VARCHAR   'v' || i % 7 (a dictionary)      u VARCHAR 'prefix-shared-' || i
//   f FLOAT     i / 3 (in float)       d DOUBLE  i / 7
//   bo BOOLEAN  i % 3 = 0              n INTEGER i, null where i % 5 = 0
//   l INTEGER[] [i, i + 1] (a list: not a property)
// Usage: node write-types-duckdb.mjs OUT CODEC V1|V2 ROWS ROW_GROUP_SIZE
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { DuckDBInstance } = await import(require.resolve("@duckdb/node-api"));
const [output, codec, version, rows, groups] = process.argv.slice(2);
const db = await DuckDBInstance.create(":memory:");
const c = await db.connect();
const out = output.replace(/'/g, "''");
await c.run(
  "COPY (SELECT (i * 37 - 5000)::INTEGER AS a, (i * 1000000007)::BIGINT AS b," +
    " 'v' || (i % 7)::VARCHAR AS s, 'prefix-shared-' || i::VARCHAR AS u," +
    " i::FLOAT / 3::FLOAT AS f, i::DOUBLE / 7 AS d, i % 3 = 0 AS bo," +
    " CASE WHEN i % 5 = 0 THEN NULL ELSE i::INTEGER END AS n, [i, i + 1]::INTEGER[] AS l" +
    " FROM range(" + Number(rows) + ") t(i) ORDER BY i) TO '" + out + "' (FORMAT parquet," +
    " COMPRESSION " + codec + ", PARQUET_VERSION " + version + ", ROW_GROUP_SIZE " + Number(groups) + ")");
const r = await c.runAndReadAll(
  "SELECT count(DISTINCT row_group_id) AS row_groups, list(DISTINCT encodings ORDER BY encodings) AS encodings," +
    " list(DISTINCT compression) AS codecs FROM parquet_metadata('" + out + "')");
console.log(JSON.stringify(r.getRowObjectsJson()[0]));
