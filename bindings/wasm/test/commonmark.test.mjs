// `chatmark/commonmark` (spec section 9): the import vectors through its Node entry and its
// browser entry (in Node and in headless Chromium), its errors and its lone surrogates (L2),
// and agreement with the native `chatmark import --jsonl` over the model-style answers of
// the speed check's corpus.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as node from 'chatmark/commonmark';
import * as web from '../js/commonmark-browser.js';
import { CHROMIUM, importVectors, judge, launchChromium, repoRoot, serve, settle } from './helpers.mjs';

const vectors = importVectors();

test(`${vectors.length} import vectors through the Node entry and the browser entry in Node`, async () => {
  // the browser entry in Node: its init() finds the instance the Node entry made
  await web.init();
  assert.ok(vectors.length >= 90, `only ${vectors.length} vectors`);
  const misses = [];
  for (const v of vectors) {
    for (const [name, m] of [
      ['node', node],
      ['web', web],
    ]) {
      const miss = judge(
        v,
        settle(() => m.fromCommonMark(v.input.text)),
      );
      if (miss) misses.push(`${name} ${miss}`);
    }
  }
  assert.equal(misses.length, 0, misses.slice(0, 10).join('\n'));
});

test('fromCommonMark refuses what is not text and reads lone surrogates as U+FFFD (L2)', () => {
  for (const bad of [undefined, null, 3, { text: 'x' }]) {
    assert.throws(
      () => node.fromCommonMark(bad),
      (e) => e instanceof node.ChatmarkError && e.code === 'invalid_text' && e.field === 'text',
    );
  }
  assert.deepEqual(node.fromCommonMark('*a\ud800*'), {
    text: 'a\ufffd',
    text_styles: [{ start: 0, len: 2, st: ['i'] }],
  });
  // each result owns its arrays, and an empty text gives an empty result
  const a = node.fromCommonMark('**x**');
  a.text_styles[0].st.push('u');
  assert.deepEqual(node.fromCommonMark('**x**').text_styles[0].st, ['b']);
  assert.deepEqual(node.fromCommonMark(''), { text: '', text_styles: [] });
  assert.equal(node.version, '0.1.0');
});

const targetDir = process.env.CARGO_TARGET_DIR || join(repoRoot, 'target');
const native = process.env.CHATMARK_BIN || join(targetDir, 'release', 'chatmark');
const missing = !existsSync(native);
if (missing && process.env.CHATMARK_REQUIRE_NATIVE) {
  throw new Error(`no native binary at ${native}: cargo build --release -p chatmark-cli`);
}

test('native and wasm agree on the model-style answers', { skip: missing && `no ${native}` }, () => {
  const lines = readFileSync(join(repoRoot, 'benches', 'corpus', 'answers.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  assert.ok(lines.length >= 200);
  const p = spawnSync(native, ['import', '--jsonl'], { input: `${lines.join('\n')}\n`, maxBuffer: 1 << 28 });
  assert.equal(p.status, 0, p.stderr.toString());
  const want = p.stdout.toString().split('\n');
  assert.equal(want.pop(), '');
  const misses = [];
  for (let k = 0; k < lines.length; k++) {
    const got = node.fromCommonMark(JSON.parse(lines[k]).text);
    if (JSON.stringify(got) !== want[k]) misses.push(`answer ${k}:\n  native ${want[k].slice(0, 300)}`);
  }
  assert.equal(misses.length, 0, misses.slice(0, 5).join('\n'));
});

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

test(`${vectors.length} import vectors through the browser entry in Chromium`, { skip }, async () => {
  const p = await browser.context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e));
  await p.goto(`${server.origin}/test/page.html`);
  const out = await p.evaluate(
    async ({ texts }) => {
      const m = await import('/js/commonmark-browser.js');
      let notInitialized = null;
      try {
        m.fromCommonMark('x');
      } catch (e) {
        notInitialized = e instanceof m.ChatmarkError ? e.code : String(e);
      }
      await m.default();
      return { notInitialized, results: texts.map((t) => m.fromCommonMark(t)) };
    },
    { texts: vectors.map((v) => v.input.text) },
  );
  assert.equal(out.notInitialized, 'not_initialized');
  const misses = vectors.map((v, k) => judge(v, out.results[k])).filter(Boolean);
  assert.equal(misses.length, 0, misses.slice(0, 10).join('\n'));
  assert.deepEqual(errors, []);
  await p.close();
});

test("the README's example says what fromCommonMark answers", () => {
  const readme = readFileSync(join(repoRoot, 'bindings', 'wasm', 'README.md'), 'utf8');
  const answer = readme.match(/const answer = `([\s\S]*?)`;/)[1].replaceAll('\\`', '`');
  const f = node.fromCommonMark(answer);
  const shown = readme.match(/\/\/ f\.text:\n([\s\S]*?)\/\/ f\.text_styles:/)[1];
  const text = [...shown.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1].replaceAll('\\n', '\n')).join('');
  assert.equal(text, f.text);
  for (const r of f.text_styles) {
    const line = `{start: ${r.start}, len: ${r.len}, st: [${r.st.map((c) => `'${c}'`).join(', ')}]}`;
    assert.ok(readme.includes(line), `README lacks ${line}`);
  }
  assert.equal(readme.match(/\/\/ {1,2}\[?\{start: \d+/g).length, f.text_styles.length);
});
