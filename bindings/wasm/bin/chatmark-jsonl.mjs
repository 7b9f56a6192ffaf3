#!/usr/bin/env node
// chatmark-jsonl: the JSONL conformance contract of `chatmark --jsonl`, through the wasm
// engine. Each stdin line (split at \n only, a final \r dropped, invalid UTF-8 read lossily)
// is a body {"text","parse_mode"?,"text_styles"?}, resolved without the chat_id check; each
// stdout line is {"text","text_styles"} or {"error":{"code","field","message"}}, one per
// input line, in order. A last line without \n counts too.
import { resolveJsonl } from '../js/node.js';

const decoder = new TextDecoder('utf-8'); // fatal: false, so bad bytes become U+FFFD
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
  if (line.endsWith('\r')) line = line.slice(0, -1);
  const s = resolveJsonl(line) + '\n';
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
