// Writes the columns of write-types-duckdb.mjs that hyparquet-writer can encode in the encodings
// DuckDB does not use, with the npm package hyparquet-writer (found through NODE_PATH):
//   u STRING  'prefix-shared-' + i, DELTA_BYTE_ARRAY (nullable)
//   a INT32   i * 37 - 5000, DELTA_BINARY_PACKED
//   b INT64   i * 1000000007, DELTA_BINARY_PACKED
//   f FLOAT   i / 3 (in float), BYTE_STREAM_SPLIT
//   d DOUBLE  i / 7, BYTE_STREAM_SPLIT
// Usage: node write-encodings-hyparquet.mjs OUT ROWS ROW_GROUP_SIZE
import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { parquetWriteBuffer } = await import(require.resolve("hyparquet-writer"));
const [output, rowsArg, groupsArg] = process.argv.slice(2);
const rows = Number(rowsArg);
const range = (f) => Array.from({ length: rows }, (_, i) => f(i));
const buffer = parquetWriteBuffer({
  columnData: [
    { name: "u", data: range((i) => "prefix-shared-" + i), type: "STRING", encoding: "DELTA_BYTE_ARRAY" },
    { name: "a", data: Int32Array.from(range((i) => i * 37 - 5000)), type: "INT32", nullable: false, encoding: "DELTA_BINARY_PACKED" },
    { name: "b", data: range((i) => BigInt(i) * 1000000007n), type: "INT64", nullable: false, encoding: "DELTA_BINARY_PACKED" },
    { name: "f", data: Float32Array.from(range((i) => Math.fround(Math.fround(i) / 3))), type: "FLOAT", nullable: false, encoding: "BYTE_STREAM_SPLIT" },
    { name: "d", data: Float64Array.from(range((i) => i / 7)), type: "DOUBLE", nullable: false, encoding: "BYTE_STREAM_SPLIT" },
  ],
  rowGroupSize: Number(groupsArg),
  codec: "UNCOMPRESSED",
});
fs.writeFileSync(output, Buffer.from(buffer));
console.log(JSON.stringify({ rows, bytes: buffer.byteLength }));
