// The measurements of bench.mjs, shared by its Node and Chromium runs (no Node API here):
// the package's parsers beside markdown-it's two presets, over the same messages, in one run.

/**
 * Times `fn` over every message, `passes` times: throughput, and the median of one call.
 * `reps` > 1 times each message that many times in a row and divides, for clocks too coarse
 * to time one call (browsers round performance.now() to 5 µs or more).
 */
function measure(name, messages, bytes, fn, passes, reps, log) {
  for (const m of messages) fn(m); // warm up (JIT, wasm tier-up)
  const perCall = [];
  let total = 0;
  for (let p = 0; p < passes; p++) {
    const t0 = performance.now();
    for (const m of messages) {
      const t = performance.now();
      for (let r = 0; r < reps; r++) fn(m);
      perCall.push((performance.now() - t) / reps);
    }
    total += performance.now() - t0;
  }
  perCall.sort((a, b) => a - b);
  const seconds = total / 1000;
  const r = {
    name,
    msgsPerSec: (messages.length * passes * reps) / seconds,
    mbPerSec: (bytes * passes * reps) / seconds / 1e6,
    medianMicros: perCall[perCall.length >> 1] * 1000,
  };
  log(
    `${name.padEnd(44)} ${r.msgsPerSec.toFixed(0).padStart(9)} msg/s ` +
      `${r.mbPerSec.toFixed(1).padStart(7)} MB/s  median ${r.medianMicros.toFixed(2)} µs/call`,
  );
  return r;
}

function utf8Bytes(list) {
  const enc = new TextEncoder();
  return list.reduce((n, m) => n + enc.encode(m).length, 0);
}

/**
 * Runs every measurement: `chatmark` and `markdown` are the package's `chatmark` and
 * `chatmark/markdown` entries (initialised), `MarkdownIt` the markdown-it constructor,
 * `corpus` the messages as `{markdown, html}`.
 */
export function runAll({ chatmark, markdown, MarkdownIt, corpus, passes, reps, log }) {
  const md = corpus.map((c) => c.markdown);
  const html = corpus.map((c) => c.html);
  const mdBytes = utf8Bytes(md);
  const htmlBytes = utf8Bytes(html);
  log(`${corpus.length} messages, ${mdBytes} bytes of markdown, ${htmlBytes} of HTML, ${passes} passes`);
  const full = new MarkdownIt();
  const light = new MarkdownIt('commonmark').enable('strikethrough');
  const env = {};
  const r = {
    parseMarkdown: measure('chatmark parseMarkdown', md, mdBytes, (m) => chatmark.parseMarkdown(m), passes, reps, log),
    markdownEntry: measure('chatmark/markdown parseMarkdown', md, mdBytes, (m) => markdown.parseMarkdown(m), passes, reps, log),
    parseHtml: measure('chatmark parseHtml (the HTML corpus)', html, htmlBytes, (m) => chatmark.parseHtml(m), passes, reps, log),
    commonmark: measure('markdown-it commonmark+strikethrough (tokens)', md, mdBytes, (m) => light.parse(m, env), passes, reps, log),
    default: measure('markdown-it default preset (tokens)', md, mdBytes, (m) => full.parse(m, env), passes, reps, log),
  };
  log(
    `ratio: chatmark parseMarkdown / markdown-it throughput = ` +
      `${(r.parseMarkdown.msgsPerSec / r.commonmark.msgsPerSec).toFixed(2)} (commonmark), ` +
      `${(r.parseMarkdown.msgsPerSec / r.default.msgsPerSec).toFixed(2)} (default)`,
  );
  return r;
}
