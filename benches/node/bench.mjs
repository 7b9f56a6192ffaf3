// Benchmark of the npm package (marshalling included, results as plain objects) over the
// shared corpus, beside markdown-it 14.1.0 and 15.x parsing the same markdown into their
// token streams in JS with the `commonmark` preset plus strikethrough (the nearest to the
// dialect; 15.x also with its heavier `default` preset); and chatmark's parseHtml over the
// corpus's HTML. Prints messages per second, MB/s, the median of one call, and the ratio to
// the faster markdown-it (measure.mjs says how).
//   node benches/node/bench.mjs [--quick]             (after `npm run build` in bindings/wasm)
//   node benches/node/bench.mjs --browser [--quick]   the same in headless Chromium
//                                                      (/usr/bin/chromium), browser entries
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAll } from './measure.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = join(here, '..', '..');
const corpus = readFileSync(join(here, '..', 'corpus', 'messages.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
const quick = process.argv.includes('--quick');
const passes = quick ? 3 : 25;

if (!process.argv.includes('--browser')) {
  const peers = {
    '14.1.0': (await import('markdown-it-14')).default,
    '15.0.3': (await import('markdown-it')).default,
  };
  const chatmark = await import('../../bindings/wasm/js/node.js');
  const markdown = await import('../../bindings/wasm/js/markdown-node.js');
  runAll({ chatmark, markdown, peers, corpus, passes, reps: 1, log: console.log });
} else {
  // Chromium rounds performance.now() to 5 µs even cross-origin isolated (served so, below):
  // each message is timed over 20 calls in a row for the median.
  const TYPES = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.mjs': 'text/javascript',
    '.wasm': 'application/wasm',
  };
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const file = join(repo, path);
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (path === '/') {
      res.writeHead(200, {
        'content-type': 'text/html',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
      });
      res.end('<!doctype html><meta charset="utf-8"><title>bench</title>');
      return;
    }
    if (!file.startsWith(repo + sep)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] || 'application/octet-stream',
        'cross-origin-resource-policy': 'same-origin',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const require = createRequire(join(repo, 'bindings', 'wasm', 'package.json'));
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => console.log(m.text()));
    await page.goto(`${origin}/`);
    console.log(`${await browser.version()}, crossOriginIsolated: ${await page.evaluate(() => crossOriginIsolated)}`);
    await page.evaluate(
      async ({ corpus, passes }) => {
        const chatmark = await import('/bindings/wasm/js/browser.js');
        const markdown = await import('/bindings/wasm/js/markdown-browser.js');
        await chatmark.default();
        await markdown.default();
        // 15.x ships an ES module for browsers; 14.1.0 only a UMD script, which sets `markdownit`
        const { default: MarkdownIt15 } = await import(
          '/benches/node/node_modules/markdown-it/dist/browser/markdown-it.esm.min.mjs'
        );
        await new Promise((loaded, failed) => {
          const script = document.createElement('script');
          script.src = '/benches/node/node_modules/markdown-it-14/dist/markdown-it.min.js';
          script.onload = loaded;
          script.onerror = failed;
          document.head.append(script);
        });
        const peers = { '14.1.0': window.markdownit, '15.0.3': MarkdownIt15 };
        const { runAll } = await import('/benches/node/measure.mjs');
        runAll({ chatmark, markdown, peers, corpus, passes, reps: 20, log: console.log });
      },
      { corpus, passes: Math.max(1, Math.round(passes / 5)) },
    );
  } finally {
    await browser.close();
    server.close();
  }
}
