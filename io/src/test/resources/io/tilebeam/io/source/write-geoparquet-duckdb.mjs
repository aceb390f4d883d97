// Writes a GeoJSON FeatureCollection (or GeoJSONSeq) as GeoParquet 1.1 with DuckDB's own Parquet
// writer (the npm package @duckdb/node-api, found through NODE_PATH): an `id` column, one column
// per property (numbers DOUBLE, booleans BOOLEAN, strings VARCHAR), the geometry as WKB (encoded here, little-endian,
// 2-D), a `bbox` covering struct, and two columns tilebeam does not read as properties: `tags`, a
// list of the feature's strings, and `attrs`, a map of them. The `geo` metadata goes in through
// COPY's KV_METADATA (this DuckDB has no spatial extension). DuckDB chooses the pages and encodings
// (dictionary, and with PARQUET_VERSION V2 the delta encodings and BYTE_STREAM_SPLIT).
// Usage: node write-geoparquet-duckdb.mjs IN OUT CODEC [ROW_GROUP_SIZE] [V1|V2]
//   CODEC: uncompressed, snappy, gzip, zstd, lz4 (DuckDB writes LZ4_RAW), brotli
import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { DuckDBInstance } = await import(require.resolve("@duckdb/node-api"));

const [input, output, codec, rowsArg, version] = process.argv.slice(2);
const text = fs.readFileSync(input, "utf8");
let features;
try {
  features = JSON.parse(text).features;
} catch {
  features = undefined;
}
if (!features) {
  features = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l.replace(/^\x1e/, "")));
}

// WKB (ISO, little-endian, 2-D) of a GeoJSON geometry.
const wkb = (g) => {
  const parts = [];
  const u8 = (v) => parts.push(Uint8Array.of(v));
  const u32 = (v) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, v, true); parts.push(b); };
  const xy = (c) => { const b = new Uint8Array(16); const d = new DataView(b.buffer); d.setFloat64(0, c[0], true); d.setFloat64(8, c[1], true); parts.push(b); };
  const points = (cs) => { u32(cs.length); cs.forEach(xy); };
  const write = (g) => {
    u8(1);
    switch (g.type) {
      case "Point": u32(1); xy(g.coordinates); break;
      case "LineString": u32(2); points(g.coordinates); break;
      case "Polygon": u32(3); u32(g.coordinates.length); g.coordinates.forEach(points); break;
      case "MultiPoint": u32(4); u32(g.coordinates.length); g.coordinates.forEach((c) => write({ type: "Point", coordinates: c })); break;
      case "MultiLineString": u32(5); u32(g.coordinates.length); g.coordinates.forEach((c) => write({ type: "LineString", coordinates: c })); break;
      case "MultiPolygon": u32(6); u32(g.coordinates.length); g.coordinates.forEach((c) => write({ type: "Polygon", coordinates: c })); break;
      case "GeometryCollection": u32(7); u32(g.geometries.length); g.geometries.forEach(write); break;
      default: throw new Error("geometry type " + g.type);
    }
  };
  write(g);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
};
const bounds = (g) => {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  const walk = (c) => {
    if (typeof c[0] === "number") {
      x0 = Math.min(x0, c[0]); y0 = Math.min(y0, c[1]);
      x1 = Math.max(x1, c[0]); y1 = Math.max(y1, c[1]);
    } else c.forEach(walk);
  };
  walk(g.type === "GeometryCollection" ? g.geometries.map((x) => x.coordinates) : g.coordinates);
  return [x0, y0, x1, y1];
};

const names = [...new Set(features.flatMap((f) => Object.keys(f.properties ?? {})))].sort();
const typeOf = (name) => {
  const v = features.map((f) => f.properties?.[name]).find((x) => x !== null && x !== undefined);
  return typeof v === "number" ? "DOUBLE" : typeof v === "boolean" ? "BOOLEAN" : "VARCHAR";
};
const strings = names.filter((n) => typeOf(n) === "VARCHAR");

const db = await DuckDBInstance.create(":memory:");
const c = await db.connect();
const q = (n) => '"' + n.replace(/"/g, '""') + '"';
await c.run(
  "CREATE TABLE t (ord INTEGER, id VARCHAR, " +
    names.map((n) => q(n) + " " + typeOf(n)).join(", ") +
    (names.length ? ", " : "") +
    "geometry BLOB, xmin DOUBLE, ymin DOUBLE, xmax DOUBLE, ymax DOUBLE)");
const a = await c.createAppender("t");
features.forEach((f, i) => {
  a.appendInteger(i);
  if (f.id === undefined || f.id === null) a.appendNull(); else a.appendVarchar(String(f.id));
  for (const n of names) {
    const v = f.properties?.[n];
    if (v === null || v === undefined) a.appendNull();
    else if (typeOf(n) === "DOUBLE") a.appendDouble(v);
    else if (typeOf(n) === "BOOLEAN") a.appendBoolean(v);
    else a.appendVarchar(String(v));
  }
  a.appendBlob(wkb(f.geometry));
  bounds(f.geometry).forEach((v) => a.appendDouble(v));
  a.endRow();
});
a.closeSync();

const types = [...new Set(features.map((f) => f.geometry.type))].sort();
const geo = {
  version: "1.1.0",
  primary_column: "geometry",
  columns: {
    geometry: {
      encoding: "WKB",
      geometry_types: types,
      covering: { bbox: { xmin: ["bbox", "xmin"], ymin: ["bbox", "ymin"], xmax: ["bbox", "xmax"], ymax: ["bbox", "ymax"] } },
    },
  },
};
const list = strings.length ? "list_value(" + strings.map(q).join(", ") + ")" : "[]::VARCHAR[]";
const map = strings.length
  ? "map([" + strings.map((n) => "'" + n + "'").join(", ") + "], [" + strings.map(q).join(", ") + "])"
  : "map()";
const options = [
  "FORMAT parquet",
  "COMPRESSION " + codec,
  "ROW_GROUP_SIZE " + Number(rowsArg || 122880),
  "PARQUET_VERSION " + (version || "V1"),
  "KV_METADATA {geo: '" + JSON.stringify(geo).replace(/'/g, "''") + "'}",
];
await c.run(
  "COPY (SELECT id, " +
    names.map(q).join(", ") +
    (names.length ? ", " : "") +
    list + " AS tags, " + map + " AS attrs, geometry, " +
    "{'xmin': xmin, 'ymin': ymin, 'xmax': xmax, 'ymax': ymax} AS bbox FROM t ORDER BY ord) TO '" +
    output.replace(/'/g, "''") + "' (" + options.join(", ") + ")");
const r = await c.runAndReadAll(
  "SELECT count(*) AS row_groups, list(DISTINCT compression) AS codecs, list(DISTINCT encodings) AS encodings " +
    "FROM parquet_metadata('" + output.replace(/'/g, "''") + "')");
console.log(JSON.stringify({ rows: features.length, metadata: r.getRowObjectsJson()[0] }));
