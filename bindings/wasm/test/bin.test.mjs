// The chatmark-jsonl bin: the JSONL contract of `chatmark --jsonl` over every public vector,
// plus the line handling of the contract (lossy UTF-8, \n-only splitting, a last line
// without \n, invalid JSON).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { judge, judgeSplit, pkgRoot, splitVectorFiles, vectorFiles } from './helpers.mjs';

test('every vector through the chatmark-jsonl bin', () => {
  const vectors = vectorFiles().flatMap((f) => f.vectors);
  const input = `${vectors.map((v) => `${JSON.stringify(v.input)}\n`).join('')}not json\n{"text":"tail"}`;
  const p = spawnSync(process.execPath, [join(pkgRoot, 'bin', 'chatmark-jsonl.mjs')], {
    input,
    maxBuffer: 1 << 28,
  });
  assert.equal(p.status, 0, p.stderr.toString());
  const lines = p.stdout.toString().split('\n');
  assert.equal(lines.pop(), '', 'the output ends with a newline');
  assert.equal(lines.length, vectors.length + 2);
  const misses = vectors.map((v, k) => judge(v, JSON.parse(lines[k]))).filter(Boolean);
  assert.equal(misses.length, 0, misses.slice(0, 10).join('\n'));
  assert.equal(JSON.parse(lines[vectors.length]).error.code, 'invalid_json');
  assert.equal(JSON.parse(lines[vectors.length + 1]).text, 'tail');
});

test('the bin reads invalid UTF-8 lossily and splits at \\n only', () => {
  const input = Buffer.concat([
    Buffer.from('{"text":"a'),
    Buffer.from([0xff, 0xc3]),
    Buffer.from('b"}\r\n{"text":"x\u2028y"}\n'),
  ]);
  const p = spawnSync(process.execPath, [join(pkgRoot, 'bin', 'chatmark-jsonl.mjs')], { input });
  const lines = p.stdout.toString().split('\n');
  assert.deepEqual(
    lines.slice(0, 2).map((l) => JSON.parse(l).text),
    ['a\ufffd\ufffdb', 'x\u2028y'],
  );
});

test('the bin skips a byte-order mark opening the input and escapes U+2028/U+2029, as the CLI', () => {
  const bin = join(pkgRoot, 'bin', 'chatmark-jsonl.mjs');
  const input = '\ufeff{"text":"*a*","parse_mode":"markdown"}\n\ufeff{"text":"b"}\n{"text":"x\u2028y\u2029"}\n';
  const lines = spawnSync(process.execPath, [bin], { input }).stdout.toString().split('\n');
  assert.equal(lines[0], '{"text":"a","text_styles":[{"start":0,"len":1,"st":["i"]}]}');
  // elsewhere U+FEFF is a body's first character, which is no JSON
  assert.equal(JSON.parse(lines[1]).error.code, 'invalid_json');
  assert.equal(lines[2], '{"text":"x\\u2028y\\u2029","text_styles":[]}');
});

test('every split vector through the chatmark-jsonl bin with --split (S1-S5)', () => {
  const vectors = splitVectorFiles().flatMap((f) => f.vectors);
  const input = `${vectors.map((v) => `${JSON.stringify(v.input)}\n`).join('')}not json\n`;
  const p = spawnSync(process.execPath, [join(pkgRoot, 'bin', 'chatmark-jsonl.mjs'), '--split'], {
    input,
    maxBuffer: 1 << 28,
  });
  assert.equal(p.status, 0, p.stderr.toString());
  const lines = p.stdout.toString().split('\n');
  assert.equal(lines.pop(), '');
  assert.equal(lines.length, vectors.length + 1);
  const misses = vectors.map((v, k) => judgeSplit(v, JSON.parse(lines[k]))).filter(Boolean);
  assert.equal(misses.length, 0, misses.slice(0, 10).join('\n'));
  assert.equal(JSON.parse(lines[vectors.length]).error.code, 'invalid_json');
});
