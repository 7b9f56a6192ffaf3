#!/usr/bin/env node
// chatmark-jsonl: the JSONL conformance contract of `chatmark --jsonl`, through the wasm
// engine. Each stdin line (split at \n only, a final \r dropped, invalid UTF-8 read lossily,
// a byte-order mark opening the input skipped)
// is a body {"text","parse_mode"?,"text_styles"?}, resolved without the chat_id check; each
// stdout line is {"text","text_styles"} or {"error":{"code","field","message"}}, one per
// input line, in order, with U+2028/U+2029 escaped. A last line without \n counts too.
// With --split, the contract of `chatmark split --jsonl` (spec section 8): each body may
// carry a "limit", and each answer is {"parts":[{"text","text_styles"},...]} or {"error"}.
import { resolveJsonl, splitJsonl } from '../js/node.js';

const answerLine = process.argv.includes('--split') ? splitJsonl : resolveJsonl;

// fatal: false, so bad bytes become U+FFFD; a byte-order mark is dropped at the start of
// the input only, as `chatmark --jsonl` does (a decoder would drop it from every line)
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
let first = true;
let pending = [];
let out = [];
let outBytes = 0;

function flush(force) {
  if (out.length && (force || outBytes > 1 << 16)) {
    process.stdout.write(out.join(''));
    out = [];
    outBytes = 0;
  }
}

function answer(bytes) {
  let line = decoder.decode(bytes);
  if (first && line.startsWith('\ufeff')) line = line.slice(1);
  first = false;
  if (line.endsWith('\r')) line = line.slice(0, -1);
  const s = `${answerLine(line)}\n`;
  out.push(s);
  outBytes += s.length;
}

process.stdin.on('data', (chunk) => {
  let from = 0;
  for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
    pending.push(chunk.subarray(from, nl));
    answer(Buffer.concat(pending));
    pending = [];
    from = nl + 1;
  }
  if (from < chunk.length) pending.push(chunk.subarray(from));
  flush(false);
});
process.stdin.on('end', () => {
  if (pending.length) answer(Buffer.concat(pending));
  flush(true);
});
