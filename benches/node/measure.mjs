// The measurements of bench.mjs, shared by its Node and Chromium runs (no Node API here):
// the package's parsers beside markdown-it's two presets, over the same messages, in one run.

/**
 * Times each case over every message, `passes` times, the cases taking turns pass by pass
 * (so that a burst of load on a shared machine falls on all of them alike): throughput, and
 * the median of one call. `reps` > 1 times each message that many times in a row and
 * divides, for clocks too coarse to time one call (browsers round performance.now() to 5 µs
 * or more).
 */
function measureAll(cases, passes, reps) {
  for (const c of cases) for (const m of c.messages) c.fn(m); // warm up (JIT, wasm tier-up)
  const state = cases.map(() => ({ perCall: [], total: 0 }));
  for (let p = 0; p < passes; p++) {
    cases.forEach((c, k) => {
      const st = state[k];
      const t0 = performance.now();
      for (const m of c.messages) {
        const t = performance.now();
        for (let r = 0; r < reps; r++) c.fn(m);
        st.perCall.push((performance.now() - t) / reps);
      }
      st.total += performance.now() - t0;
    });
  }
  return cases.map((c, k) => {
    const { perCall, total } = state[k];
    perCall.sort((a, b) => a - b);
    const seconds = total / 1000;
    return {
      name: c.name,
      msgsPerSec: (c.messages.length * passes * reps) / seconds,
      mbPerSec: (c.bytes * passes * reps) / seconds / 1e6,
      medianMicros: perCall[perCall.length >> 1] * 1000,
    };
  });
}

function line(r) {
  return (
    `${r.name.padEnd(44)} ${r.msgsPerSec.toFixed(0).padStart(9)} msg/s ` +
    `${r.mbPerSec.toFixed(1).padStart(7)} MB/s  median ${r.medianMicros.toFixed(2)} µs/call`
  );
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
  const md_ = { messages: md, bytes: mdBytes };
  const html_ = { messages: html, bytes: htmlBytes };
  const [parseMarkdown, markdownEntry, parseHtml, commonmark, preset] = measureAll(
    [
      { name: 'chatmark parseMarkdown', ...md_, fn: (m) => chatmark.parseMarkdown(m) },
      { name: 'chatmark/markdown parseMarkdown', ...md_, fn: (m) => markdown.parseMarkdown(m) },
      { name: 'chatmark parseHtml (the HTML corpus)', ...html_, fn: (m) => chatmark.parseHtml(m) },
      { name: 'markdown-it commonmark+strikethrough (tokens)', ...md_, fn: (m) => light.parse(m, env) },
      { name: 'markdown-it default preset (tokens)', ...md_, fn: (m) => full.parse(m, env) },
    ],
    passes,
    reps,
  );
  const r = { parseMarkdown, markdownEntry, parseHtml, commonmark, default: preset };
  for (const x of Object.values(r)) log(line(x));
  log(
    `ratio: chatmark parseMarkdown / markdown-it throughput = ` +
      `${(r.parseMarkdown.msgsPerSec / r.commonmark.msgsPerSec).toFixed(2)} (commonmark), ` +
      `${(r.parseMarkdown.msgsPerSec / r.default.msgsPerSec).toFixed(2)} (default); ` +
      `medians ${(r.commonmark.medianMicros / r.parseMarkdown.medianMicros).toFixed(2)} ` +
      `(commonmark), ${(r.default.medianMicros / r.parseMarkdown.medianMicros).toFixed(2)} (default)`,
  );
  return r;
}
