// The package off the beaten path (issue 24), in Node: the composer imported where there is
// no DOM (server-side rendering), the browser entry under Node (a test runner's browser
// environment), the Vite pre-bundle fallback, and the CommonJS types against the ESM ones.
// The toolchains themselves are driven by integration/run.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultWasm } from '../js/engine.js';
import { pkgRoot } from './helpers.mjs';

test('importing the composer in Node defines nothing and throws nothing (SSR)', async () => {
  assert.equal(typeof globalThis.HTMLElement, 'undefined');
  for (const entry of ['chatmark/composer', '../js/composer.js']) {
    const m = await import(entry);
    assert.equal(typeof m.ChatmarkComposer, 'function');
    assert.equal(typeof m.ChatmarkComposer.engine.parseMarkdown, 'function');
  }
  assert.equal(typeof globalThis.customElements, 'undefined');
});

test("the browser entry's init() reads its file: URL in Node, and takes bytes", async () => {
  const browser = await import('../js/browser.js');
  await browser.init();
  assert.equal(browser.parseMarkdown('**a**').text_styles[0].st[0], 'b');
  const markdown = await import('../js/markdown-browser.js');
  await markdown.init(readFileSync(join(pkgRoot, 'pkg', 'chatmark_markdown_bg.wasm')));
  assert.equal(markdown.about().html, false);
});

test("the wasm init() fetches by default: its file: URL, or the package's out of Vite's pre-bundle", () => {
  const at = (s) => defaultWasm(new URL(s))?.href;
  const file = 'file:///srv/app/node_modules/chatmark/pkg/chatmark_bg.wasm';
  assert.equal(at(file), file);
  assert.equal(
    at('http://127.0.0.1:5173/node_modules/.vite/pkg/chatmark_bg.wasm'),
    'http://127.0.0.1:5173/node_modules/chatmark/pkg/chatmark_bg.wasm',
  );
  assert.equal(
    at('http://h/app/node_modules/.vite/pkg/chatmark_markdown_bg.wasm'),
    'http://h/app/node_modules/chatmark/pkg/chatmark_markdown_bg.wasm',
  );
  for (const elsewhere of [
    'http://h/node_modules/chatmark/pkg/chatmark_bg.wasm',
    'http://h/assets/chatmark_bg-1a2b.wasm',
  ]) {
    assert.equal(at(elsewhere), undefined, elsewhere);
  }
});

/** The names of the types a declaration file exports: interfaces, type aliases, classes (also
 *  re-exported ones: PascalCase names among the values). */
function typeNames(file) {
  const src = readFileSync(join(pkgRoot, file), 'utf8');
  const names = new Set();
  for (const m of src.matchAll(/^export (?:declare )?(?:interface|type|class) (\w+)/gm)) names.add(m[1]);
  for (const m of src.matchAll(/^export (type )?\{([^}]*)\} from/gm)) {
    for (const n of m[2].split(',').map((n) => n.trim())) if (m[1] ? n : /^[A-Z][a-z]/.test(n)) names.add(n);
  }
  return [...names].sort();
}

test('the CommonJS types name every type of the ESM ones', () => {
  for (const [esm, cjs] of [
    ['index.d.ts', 'index.d.cts'],
    ['markdown.d.ts', 'markdown.d.cts'],
    ['commonmark.d.ts', 'commonmark.d.cts'],
  ]) {
    const declared = [...readFileSync(join(pkgRoot, cjs), 'utf8').matchAll(/^ {2}export type (\w+)/gm)].map(
      (m) => m[1],
    );
    assert.deepEqual(declared.sort(), typeNames(esm), `${cjs} against ${esm}`);
  }
});
