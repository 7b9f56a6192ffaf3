// The built package in headless Chromium (Debian's /usr/bin/chromium through playwright-core,
// served from 127.0.0.1): every public vector through the default and the inline entries.
// The composer and the demo page are tested in composer.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { CHROMIUM, forMarkdownEntry, judge, launchChromium, serve, vectorFiles } from './helpers.mjs';

const vectors = vectorFiles().flatMap((f) => f.vectors);
const skip = !existsSync(CHROMIUM) && `no ${CHROMIUM} (apt-get install chromium)`;

let server;
let browser;
before(async () => {
  if (skip) return;
  server = await serve();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function page() {
  const p = await browser.context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e));
  await p.goto(`${server.origin}/test/page.html`);
  return { p, errors };
}

function runVectors() {
  return async ({ entry, inputs }) => {
    const m = await import(entry);
    let notInitialized = null;
    try {
      m.parse('x', 'markdown');
    } catch (e) {
      notInitialized = e.code;
    }
    await m.default();
    const results = inputs.map((input) => {
      try {
        return m.resolveSendMessage(input, { checkChatId: false });
      } catch (e) {
        return {
          error: {
            code: e.code,
            field: e.field,
            message: e.message,
            isChatmarkError: e instanceof m.ChatmarkError && e instanceof Error,
          },
        };
      }
    });
    return { notInitialized, results, version: m.version };
  };
}

for (const [name, entry, initialisedAtImport, expect] of [
  ['default (browser) entry', '/js/browser.js', false, (v) => v],
  ['inline entry', '/pkg/inline.js', true, (v) => v],
  ['chatmark/markdown browser entry', '/js/markdown-browser.js', false, forMarkdownEntry],
]) {
  test(`${vectors.length} vectors through the ${name} in Chromium`, { skip }, async () => {
    const { p, errors } = await page();
    const out = await p.evaluate(runVectors(), { entry, inputs: vectors.map((v) => v.input) });
    assert.equal(out.notInitialized, initialisedAtImport ? null : 'not_initialized');
    assert.equal(out.version, '0.1.0');
    const misses = vectors.map((v, k) => judge(expect(v), out.results[k])).filter(Boolean);
    assert.equal(misses.length, 0, misses.slice(0, 10).join('\n'));
    const refused = out.results.filter((r) => r.error);
    assert.ok(refused.length > 0 && refused.every((r) => r.error.isChatmarkError));
    assert.deepEqual(errors, []);
    await p.close();
  });
}

test('the inline entry fetches nothing', { skip }, async () => {
  const { p } = await page();
  const fetched = [];
  p.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const text = await p.evaluate(async () => (await import('/pkg/inline.js')).parseMarkdown('**a**').text);
  assert.equal(text, 'a');
  assert.ok(!fetched.some((u) => u.endsWith('.wasm')), fetched.join(' '));
  await p.close();
});

// What bundlers and people hand to init() (issue 24): each form in a fresh page, so that the
// wasm-bindgen glue is not initialised already.
const INIT_FORMS = {
  'a URL': 'new URL("/pkg/chatmark_bg.wasm", location.href)',
  'a string': '"/pkg/chatmark_bg.wasm"',
  'a Response': 'await fetch("/pkg/chatmark_bg.wasm")',
  'a promise of a Response': 'fetch("/pkg/chatmark_bg.wasm")',
  'an ArrayBuffer': 'await (await fetch("/pkg/chatmark_bg.wasm")).arrayBuffer()',
  'a Uint8Array': 'new Uint8Array(await (await fetch("/pkg/chatmark_bg.wasm")).arrayBuffer())',
  'a WebAssembly.Module': 'await WebAssembly.compileStreaming(fetch("/pkg/chatmark_bg.wasm"))',
  'a Blob': 'await (await fetch("/pkg/chatmark_bg.wasm")).blob()',
  "wasm-bindgen's { module_or_path }": '({ module_or_path: "/pkg/chatmark_bg.wasm" })',
  'a module namespace-like { default }': '({ default: "/pkg/chatmark_bg.wasm" })',
};
for (const [what, expr] of Object.entries(INIT_FORMS)) {
  test(`init() takes ${what}`, { skip }, async () => {
    const { p, errors } = await page();
    const warnings = [];
    p.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    const text = await p.evaluate(
      `(async () => { const m = await import('/js/browser.js'); await m.init(${expr}); return m.parseMarkdown('**a**').text; })()`,
    );
    assert.equal(text, 'a');
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, []); // no deprecated-parameters warning from the glue
    await p.close();
  });
}
