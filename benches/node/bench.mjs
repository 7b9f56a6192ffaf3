// Node benchmark of the npm package (marshalling included) over the shared corpus, beside
// markdown-it parsing the same markdown in JS (its token stream, the nearest JS peer).
// Prints messages per second, MB/s and the median latency of one call, and the ratio.
//   node benches/node/bench.mjs [--quick]      (after `npm run build` in bindings/wasm)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import MarkdownIt from 'markdown-it';
import * as chatmark from '../../bindings/wasm/js/node.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const messages = readFileSync(`${here}../corpus/messages.jsonl`, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l).markdown);
const bytes = messages.reduce((n, m) => n + Buffer.byteLength(m), 0);
const quick = process.argv.includes('--quick');
const passes = quick ? 3 : 25;

/** Times `fn` over every message, `passes` times; returns throughput and median latency. */
function measure(name, fn) {
  for (const m of messages) fn(m); // warm up (JIT, wasm tier-up)
  const perCall = [];
  let total = 0;
  for (let p = 0; p < passes; p++) {
    const t0 = performance.now();
    for (const m of messages) {
      const t = performance.now();
      fn(m);
      perCall.push(performance.now() - t);
    }
    total += performance.now() - t0;
  }
  perCall.sort((a, b) => a - b);
  const seconds = total / 1000;
  const r = {
    name,
    msgsPerSec: (messages.length * passes) / seconds,
    mbPerSec: (bytes * passes) / seconds / 1e6,
    medianMicros: perCall[perCall.length >> 1] * 1000,
  };
  console.log(
    `${name.padEnd(28)} ${r.msgsPerSec.toFixed(0).padStart(9)} msg/s ` +
      `${r.mbPerSec.toFixed(1).padStart(7)} MB/s  median ${r.medianMicros.toFixed(2)} µs/call`,
  );
  return r;
}

const md = new MarkdownIt();
const env = {};
console.log(`${messages.length} messages, ${bytes} bytes, ${passes} passes`);
const ours = measure('chatmark parseMarkdown', (m) => chatmark.parseMarkdown(m));
const theirs = measure('markdown-it parse (tokens)', (m) => md.parse(m, env));
console.log(`ratio: chatmark / markdown-it throughput = ${(ours.msgsPerSec / theirs.msgsPerSec).toFixed(2)}`);
