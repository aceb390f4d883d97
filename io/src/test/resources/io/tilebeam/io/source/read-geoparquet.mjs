// Reads Parquet files with an independent reader, the npm package hyparquet (found through
// NODE_PATH), and prints as JSON each one's row count, row groups, column paths, key-value metadata
// and every row (binary values as hex): one object for one file, an array for several.
// Usage: node read-geoparquet.mjs FILE...
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { parquetReadObjects, parquetMetadataAsync, asyncBufferFromFile } = await import(
  require.resolve("hyparquet")
);
const hex = (v) =>
  v instanceof Uint8Array
    ? Buffer.from(v).toString("hex")
    : typeof v === "bigint"
      ? Number(v)
      : v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, hex(x)]))
        : v;
const read = async (path) => {
  const file = await asyncBufferFromFile(path);
  const meta = await parquetMetadataAsync(file);
  const rows = await parquetReadObjects({ file, utf8: true });
  return {
    file: path,
    rows: Number(meta.num_rows),
    rowGroups: meta.row_groups.length,
    columns: meta.row_groups[0]?.columns.map((c) => c.meta_data.path_in_schema.join(".")) ?? [],
    metadata: Object.fromEntries((meta.key_value_metadata ?? []).map((kv) => [kv.key, kv.value])),
    data: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, hex(v)]))),
  };
};
const paths = process.argv.slice(2);
const all = [];
for (const p of paths) all.push(await read(p));
console.log(JSON.stringify(paths.length === 1 ? all[0] : all));
