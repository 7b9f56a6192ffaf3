// Browser check of chatmark's to_html (spec W1): the fragment shows as the message looks.
//
//   node tests/browser/render.mjs            renders a sample with `chatmark render --to html`
//   node tests/browser/render.mjs --stdin    checks the HTML given on stdin instead
//
// The binary is $CHATMARK_BIN, else target/release/chatmark, else target/debug/chatmark.
// Chromium is Debian's /usr/bin/chromium (never downloaded by playwright). Asserts that bold
// is bold, red computes to rgb(219, 52, 46), list items are `li`; saves a screenshot to
// target/render-preview.png.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// A message with bold, red, an underlined and a large word, a list and a quote.
const message = {
  text: 'Hello world <script>alert(1)</script>\nfirst item\nsecond item\nquoted',
  text_styles: [
    { start: 0, len: 5, st: ['b'] },
    { start: 6, len: 5, st: ['c_db342e'] },
    { start: 38, len: 10, st: ['lst_1'] },
    { start: 44, len: 4, st: ['u', 'lst_1'] },
    { start: 49, len: 11, st: ['lst_1'] },
    { start: 56, len: 4, st: ['f_18', 'lst_1'] },
    { start: 61, len: 6, st: ['i', 'ind_1'] },
  ],
};

function chatmarkBin() {
  const candidates = [
    process.env.CHATMARK_BIN,
    join(root, 'target/release/chatmark'),
    join(root, 'target/debug/chatmark'),
  ].filter(Boolean);
  const bin = candidates.find((p) => existsSync(p));
  if (!bin) throw new Error(`no chatmark binary (tried ${candidates.join(', ')}); cargo build -p chatmark-cli`);
  return bin;
}

const html = process.argv.includes('--stdin')
  ? readFileSync(0, 'utf8')
  : execFileSync(chatmarkBin(), ['render', '--to', 'html'], { input: JSON.stringify(message) }).toString();

const userDataDir = mkdtempSync(join(tmpdir(), 'chatmark-chromium-'));
// playwright takes the fresh profile directory as the persistent context's own argument
// (it refuses --user-data-dir among the args).
const browser = await chromium.launchPersistentContext(userDataDir, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  viewport: { width: 640, height: 320 },
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage();
  // No network: the fragment is set as content, nothing is fetched.
  await page.route('**/*', (route) => route.abort());
  await page.setContent(
    `<!doctype html><meta charset="utf-8"><body style="font: 15px sans-serif; margin: 16px">` +
      `<div id="m">${html}</div></body>`,
  );
  const seen = await page.evaluate(() => {
    const m = document.getElementById('m');
    const style = (sel) => {
      const el = m.querySelector(sel);
      return el ? getComputedStyle(el) : null;
    };
    const texts = (sel) => [...m.querySelectorAll(sel)].map((e) => e.textContent);
    return {
      boldWeight: style('b')?.fontWeight,
      boldText: m.querySelector('b')?.textContent,
      redColour: style('span[style*="color"]')?.color,
      redText: m.querySelector('span[style*="color"]')?.textContent,
      items: texts('li'),
      itemTags: [...m.querySelectorAll('li')].map((e) => e.parentElement.tagName),
      scripts: m.querySelectorAll('script').length,
      quote: texts('blockquote'),
      bigSize: style('span[style*="font-size"]')?.fontSize,
    };
  });
  if (!process.argv.includes('--stdin')) {
    assert.ok(Number(seen.boldWeight) >= 600, `bold weight ${seen.boldWeight}`);
    assert.equal(seen.boldText, 'Hello');
    assert.equal(seen.redColour, 'rgb(219, 52, 46)');
    assert.equal(seen.redText, 'world');
    assert.deepEqual(seen.items, ['first item', 'second item']);
    assert.deepEqual(seen.itemTags, ['UL', 'UL']);
    assert.equal(seen.scripts, 0, 'user text became a script element');
    assert.deepEqual(seen.quote, ['quoted']);
    assert.equal(seen.bigSize, '18px');
  } else {
    if (seen.boldWeight) assert.ok(Number(seen.boldWeight) >= 600, `bold weight ${seen.boldWeight}`);
    assert.equal(seen.scripts, 0, 'user text became a script element');
  }
  const shot = join(root, 'target/render-preview.png');
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`browser check passed: ${JSON.stringify(seen)}\nscreenshot: ${shot}`);
} finally {
  await browser.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
