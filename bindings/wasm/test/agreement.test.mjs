// Native and wasm agree: a seeded corpus of random bodies per mode through the native
// `chatmark --jsonl` and through the package, compared line by line (exact JSON text through
// resolveJsonl, and as values through resolveSendMessage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resolveJsonl, resolveSendMessage } from 'chatmark';
import * as markdown from 'chatmark/markdown';
import { corpus } from './corpus.mjs';
import { repoRoot, settle } from './helpers.mjs';

const PER_MODE = Number(process.env.CHATMARK_CORPUS || 10000);
const targetDir = process.env.CARGO_TARGET_DIR || join(repoRoot, 'target');
const native = process.env.CHATMARK_BIN || join(targetDir, 'release', 'chatmark');
const missing = !existsSync(native);
if (missing && process.env.CHATMARK_REQUIRE_NATIVE) {
  throw new Error(`no native binary at ${native}: cargo build --release -p chatmark-cli`);
}
const skip = missing && `no native binary at ${native} (cargo build --release -p chatmark-cli)`;

for (const [mode, seed] of [
  ['markdown', 1],
  ['html', 2],
  ['plain', 3],
]) {
  test(`native and wasm agree on ${PER_MODE} random ${mode} bodies`, { skip }, () => {
    const lines = corpus(mode, PER_MODE, seed).map((b) => JSON.stringify(b));
    const p = spawnSync(native, ['--jsonl'], { input: `${lines.join('\n')}\n`, maxBuffer: 1 << 30 });
    assert.equal(p.status, 0, p.stderr.toString());
    const want = p.stdout.toString().split('\n');
    assert.equal(want.pop(), '');
    assert.equal(want.length, lines.length);
    const misses = [];
    for (let k = 0; k < lines.length && misses.length < 10; k++) {
      const got = resolveJsonl(lines[k]);
      if (got !== want[k]) misses.push(`line ${k}: ${lines[k]}\n  native ${want[k]}\n  wasm   ${got}`);
      const api = settle(() => resolveSendMessage(JSON.parse(lines[k]), { checkChatId: false }));
      const expected = JSON.parse(want[k]);
      if (api.error) {
        delete api.error.message;
        delete expected.error?.message;
      }
      try {
        assert.deepEqual(api, expected);
      } catch {
        misses.push(`api line ${k}: ${lines[k]}\n  native ${want[k]}\n  wasm   ${JSON.stringify(api)}`);
      }
      if (mode !== 'html') {
        // chatmark/markdown's own wasm agrees too (its HTML refusal: the API test and vectors)
        const md = settle(() => markdown.resolveSendMessage(JSON.parse(lines[k]), { checkChatId: false }));
        if (md.error) delete md.error.message;
        try {
          assert.deepEqual(md, expected);
        } catch {
          misses.push(`markdown line ${k}: ${lines[k]}\n  native ${want[k]}\n  wasm   ${JSON.stringify(md)}`);
        }
      }
    }
    assert.equal(misses.length, 0, misses.join('\n'));
  });
}
