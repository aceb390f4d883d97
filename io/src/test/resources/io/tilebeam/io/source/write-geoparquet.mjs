// Writes a GeoJSON FeatureCollection (or GeoJSONSeq) as GeoParquet 1.1 with an independent writer,
// the npm package hyparquet-writer (found through NODE_PATH): an `id` column from the features'
// ids, one column per property (numbers DOUBLE, strings STRING, booleans BOOLEAN), the geometry
// as WKB (hyparquet-writer's own GeoJSON-to-WKB), a `bbox` covering struct, the `geo` metadata with
// the given CRS (PROJJSON with an id; none given: no crs member, meaning CRS84), Snappy pages.
// Usage: node write-geoparquet.mjs IN OUT [ROWS_PER_GROUP] [EPSG_CODE] [CODEC: SNAPPY, GZIP, BROTLI,
// LZO (labelled only: the pages are not compressed)]
import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const writerPath = require.resolve("hyparquet-writer");
const { parquetWriteBuffer, geojsonToWkb } = await import(writerPath);

const [input, output, rowsArg, epsg, codec] = process.argv.slice(2);
const zlib = await import("node:zlib");
const text = fs.readFileSync(input, "utf8");
let features;
try {
  features = JSON.parse(text).features;
} catch {
  features = undefined;
}
if (!features) {
  // GeoJSONSeq: one feature a line, each maybe after a record separator.
  features = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l.replace(/^\x1e/, "")));
}

const names = [...new Set(features.flatMap((f) => Object.keys(f.properties ?? {})))].sort();
const typeOf = (name) => {
  const v = features.map((f) => f.properties?.[name]).find((x) => x !== null && x !== undefined);
  return typeof v === "number" ? "DOUBLE" : typeof v === "boolean" ? "BOOLEAN" : "STRING";
};
const bounds = (g) => {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  const walk = (c) => {
    if (typeof c[0] === "number") {
      x0 = Math.min(x0, c[0]); y0 = Math.min(y0, c[1]);
      x1 = Math.max(x1, c[0]); y1 = Math.max(y1, c[1]);
    } else c.forEach(walk);
  };
  walk(g.coordinates);
  return { xmin: x0, ymin: y0, xmax: x1, ymax: y1 };
};

const schema = [{ name: "root", num_children: names.length + 3 }];
const columnData = [];
schema.push({ name: "id", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" });
columnData.push({ name: "id", data: features.map((f) => (f.id === undefined ? null : String(f.id))) });
for (const name of names) {
  const t = typeOf(name);
  schema.push(
    t === "STRING"
      ? { name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" }
      : { name, type: t, repetition_type: "OPTIONAL" });
  columnData.push({ name, data: features.map((f) => f.properties?.[name] ?? null) });
}
schema.push({ name: "geometry", type: "BYTE_ARRAY", repetition_type: "REQUIRED" });
columnData.push({ name: "geometry", data: features.map((f) => geojsonToWkb(f.geometry)) });
schema.push({ name: "bbox", repetition_type: "REQUIRED", num_children: 4 });
for (const k of ["xmin", "ymin", "xmax", "ymax"]) {
  schema.push({ name: k, type: "DOUBLE", repetition_type: "REQUIRED" });
}
columnData.push({ name: "bbox", data: features.map((f) => bounds(f.geometry)) });

const types = [...new Set(features.map((f) => f.geometry.type))].sort();
const column = {
  encoding: "WKB",
  geometry_types: types,
  covering: { bbox: { xmin: ["bbox", "xmin"], ymin: ["bbox", "ymin"], xmax: ["bbox", "xmax"], ymax: ["bbox", "ymax"] } },
};
if (epsg) {
  column.crs = { type: "ProjectedCRS", name: "EPSG:" + epsg, id: { authority: "EPSG", code: Number(epsg) } };
}
const geo = { version: "1.1.0", primary_column: "geometry", columns: { geometry: column } };
const rows = rowsArg ? Number(rowsArg) : 100000;
const buffer = parquetWriteBuffer({
  schema,
  columnData,
  rowGroupSize: rows,
  codec: codec || "SNAPPY",
  compressors: {
    GZIP: (b) => new Uint8Array(zlib.gzipSync(b)),
    BROTLI: (b) => new Uint8Array(zlib.brotliCompressSync(b)),
    // Not LZO at all (no LZO writer here): a page a reader should refuse by the footer's word.
    LZO: (b) => b,
  },
  kvMetadata: [{ key: "geo", value: JSON.stringify(geo) }],
});
fs.writeFileSync(output, Buffer.from(buffer));
console.log(JSON.stringify({ rows: features.length, bytes: buffer.byteLength }));
