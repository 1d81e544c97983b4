import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { projectRoot } from '@lib/config/project-root';

/** The page that draws page 1 of /document.pdf on a canvas with pdf.js (unpdf's browser build), then says so in its title. */
const PAGE = `<!doctype html><body style="margin:0;background:#fff"><canvas id="page"></canvas>
<script type="importmap">{"imports":{"unpdf/pdfjs":"/unpdf/pdfjs.mjs"}}</script>
<script type="module">
import { getDocumentProxy } from '/unpdf/index.mjs';
const pdf = await getDocumentProxy(new Uint8Array(await (await fetch('/document.pdf')).arrayBuffer()));
const page = await pdf.getPage(1);
const viewport = page.getViewport({ scale: 1.5 });
const canvas = document.getElementById('page');
canvas.width = viewport.width;
canvas.height = viewport.height;
await page.render({ canvasContext: canvas.getContext('2d'), viewport, canvas }).promise;
document.title = 'rendered';
</script></body>`;

/**
 * Page 1 of `pdf` as a PNG at `path`, rendered by pdf.js in headless Chromium (puppeteer-core): Chromium's own PDF
 * viewer draws nothing in headless screenshots. The page and unpdf's files come from a local server on port 0;
 * Chromium is Debian's `chromium` or CHROMIUM_PATH.
 */
export async function screenshotPdfPage(pdf: Buffer, path: string): Promise<void> {
  const chromium = execFileSync('sh', ['-c', `command -v "${process.env.CHROMIUM_PATH ?? 'chromium'}"`], { encoding: 'utf8' }).trim();
  const dist = join(projectRoot(), 'node_modules/unpdf/dist');
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    else if (url === '/document.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    else if (/^\/unpdf\/(index|pdfjs)\.mjs$/.test(url))
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(dist, url.slice('/unpdf/'.length))));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await tab.waitForFunction(`document.title === 'rendered'`, { timeout: 30_000 });
    await (await tab.$('#page'))!.screenshot({ path: path as `${string}.png` });
  } finally {
    await browser.close();
    server.close();
  }
}
