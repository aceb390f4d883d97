// Loads a tilebeam preview page in Debian's headless Chromium (driven by playwright-core, whose own
// browser download is not used), waits until the map has drawn every tile it asked for, and saves
// a screenshot. Prints {"ready": …, "error": …, "tiles": n, "ranges": n} (tile files fetched,
// 206 answers to range requests) and exits 1 when the map failed.
// Usage: node screenshot.cjs URL OUT.png WIDTH HEIGHT
const { chromium } = require('playwright-core');

(async () => {
  const [url, out, width, height] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu-sandbox', '--use-angle=swiftshader',
           '--enable-unsafe-swiftshader', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: +width, height: +height } });
    let tiles = 0;
    let ranges = 0;
    page.on('response', r => {
      if (/\/\d+\/\d+\/\d+\.\w+$/.test(r.url())) tiles++;
      if (r.status() === 206) ranges++;
    });
    await page.goto(url);
    await page.waitForFunction(
      () => window.tilebeamPreview && (window.tilebeamPreview.ready || window.tilebeamPreview.error),
      null, { timeout: 60000 });
    const state = await page.evaluate(() => ({ ready: window.tilebeamPreview.ready, error: window.tilebeamPreview.error }));
    await page.screenshot({ path: out });
    console.log(JSON.stringify(Object.assign(state, { tiles, ranges })));
    process.exitCode = state.ready && !state.error ? 0 : 1;
  } finally {
    await browser.close();
  }
})().catch(e => { console.error(String(e)); process.exit(1); });
