// Reads a PMTiles archive with the project's reference JavaScript reader (the npm package
// pmtiles, found through NODE_PATH) and prints, as JSON, its header's counts and zooms, its
// metadata, and how many of the expected tiles ("z x y hex-bytes" lines, "-" for a tile the
// archive must not hold) it returns unchanged.
// Usage: node read-pmtiles.cjs ARCHIVE EXPECTED
const { PMTiles } = require("pmtiles");
const fs = require("fs");

class FileBytes {
  constructor(path) {
    this.buf = fs.readFileSync(path);
  }
  getKey() {
    return "archive";
  }
  async getBytes(offset, length) {
    const start = this.buf.byteOffset + offset;
    return { data: this.buf.buffer.slice(start, start + length) };
  }
}

(async () => {
  const archive = new PMTiles(new FileBytes(process.argv[2]));
  const h = await archive.getHeader();
  const metadata = await archive.getMetadata();
  let same = 0;
  const wrong = [];
  for (const line of fs.readFileSync(process.argv[3], "utf8").trim().split("\n")) {
    const [z, x, y, hex] = line.split(" ");
    const tile = await archive.getZxy(+z, +x, +y);
    const got = tile ? Buffer.from(tile.data).toString("hex") : "-";
    if (got === hex) {
      same++;
    } else if (wrong.length < 5) {
      wrong.push(line.slice(0, 40));
    }
  }
  console.log(
    JSON.stringify({
      minZoom: h.minZoom,
      maxZoom: h.maxZoom,
      addressed: h.numAddressedTiles,
      entries: h.numTileEntries,
      contents: h.numTileContents,
      tileType: h.tileType,
      metadata,
      same,
      wrong,
    })
  );
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
