// The measurements of bench.mjs, shared by its Node and Chromium runs (no Node API here):
// the package's parsers beside markdown-it (14.1.0 and 15.x, each with its commonmark preset
// plus strikethrough, and 15.x's default preset), over the same messages, in one run. Every
// case is timed twice: interleaved with the others pass by pass, and alone in its own warm
// loop; a case's figure is the faster of the two, and chatmark is compared with the faster
// markdown-it.

/**
 * Times each case over every message, `passes` times, the cases taking turns pass by pass
 * (so that a burst of load on a shared machine falls on all of them alike): throughput, and
 * the median of one call. Passes alternate between the two figures: throughput from passes
 * timed whole, the median from passes that time each call. (The two clock reads around a
 * call cost about 0.1 µs in Node 20 here, little of it between the reads: an empty call
 * times at a median of 0. A pass with them took that much longer per call for chatmark's
 * 1 µs as for markdown-it's 5 µs, which understated their throughput ratio by about 10%.)
 * `reps` > 1 times each message that many times in a row and divides, for clocks too
 * coarse to time one call (browsers round performance.now() to 5 µs or more).
 */
function measureAll(cases, passes, reps) {
  for (const c of cases) for (const m of c.messages) c.fn(m); // warm up (JIT, wasm tier-up)
  const state = cases.map(() => ({ perCall: [], total: 0, whole: 0 }));
  // at least one pass of each kind
  for (let p = 0; p < Math.max(passes, 2); p++) {
    cases.forEach((c, k) => {
      const st = state[k];
      if (p % 2 === 0) {
        const t0 = performance.now();
        for (const m of c.messages) for (let r = 0; r < reps; r++) c.fn(m);
        st.total += performance.now() - t0;
        st.whole++;
        return;
      }
      for (const m of c.messages) {
        const t = performance.now();
        for (let r = 0; r < reps; r++) c.fn(m);
        st.perCall.push((performance.now() - t) / reps);
      }
    });
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return cases.map((c, k) => {
    const { perCall, total, whole } = state[k];
    const seconds = total / 1000;
    return {
      name: c.name,
      msgsPerSec: (c.messages.length * whole * reps) / seconds,
      mbPerSec: (c.bytes * whole * reps) / seconds / 1e6,
      medianMicros: median(perCall) * 1000,
    };
  });
}

/** Times each case alone: warmed up, then its passes in a row (no other case between). */
function measureAlone(cases, passes, reps) {
  return cases.map((c) => measureAll([c], passes, reps)[0]);
}

/** The faster of two measurements of one case (throughput decides; its median goes with it). */
function faster(a, b) {
  return a.msgsPerSec >= b.msgsPerSec ? a : b;
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
 * `chatmark/markdown` entries (initialised), `peers` the markdown-it constructors by version
 * (`{'14.1.0': MarkdownIt, '15.0.3': MarkdownIt}`, the last also timed with its default
 * preset), `corpus` the messages as `{markdown, html}`.
 */
export function runAll({ chatmark, markdown, peers, corpus, passes, reps, log }) {
  const md = corpus.map((c) => c.markdown);
  const html = corpus.map((c) => c.html);
  const mdBytes = utf8Bytes(md);
  const htmlBytes = utf8Bytes(html);
  log(`${corpus.length} messages, ${mdBytes} bytes of markdown, ${htmlBytes} of HTML, ${passes} passes`);
  const env = {};
  const md_ = { messages: md, bytes: mdBytes };
  const html_ = { messages: html, bytes: htmlBytes };
  const versions = Object.keys(peers);
  const latest = versions[versions.length - 1];
  const cases = [
    { name: 'chatmark parseMarkdown', ...md_, fn: (m) => chatmark.parseMarkdown(m) },
    { name: 'chatmark/markdown parseMarkdown', ...md_, fn: (m) => markdown.parseMarkdown(m) },
    { name: 'chatmark parseHtml (the HTML corpus)', ...html_, fn: (m) => chatmark.parseHtml(m) },
  ];
  for (const v of versions) {
    const light = new peers[v]('commonmark').enable('strikethrough');
    cases.push({
      name: `markdown-it ${v} commonmark+strikethrough`,
      peer: true,
      ...md_,
      fn: (m) => light.parse(m, env),
    });
  }
  const full = new peers[latest]();
  cases.push({ name: `markdown-it ${latest} default preset`, ...md_, fn: (m) => full.parse(m, env) });
  const together = measureAll(cases, passes, reps);
  const alone = measureAlone(cases, passes, reps);
  log('case                                            interleaved / alone (msg/s)');
  const best = cases.map((c, k) => {
    log(
      `${c.name.padEnd(48)} ${together[k].msgsPerSec.toFixed(0).padStart(8)} / ` +
        `${alone[k].msgsPerSec.toFixed(0).padStart(8)}`,
    );
    return faster(together[k], alone[k]);
  });
  log('best of the two:');
  for (const x of best) log(line(x));
  const [parseMarkdown, markdownEntry, parseHtml] = best;
  const peerResults = best.filter((_, k) => cases[k].peer);
  const peer = peerResults.reduce((a, b) => (b.msgsPerSec > a.msgsPerSec ? b : a));
  const ratio = parseMarkdown.msgsPerSec / peer.msgsPerSec;
  log(
    `ratio: chatmark parseMarkdown / the faster markdown-it (${peer.name}) = ${ratio.toFixed(2)} ` +
      `throughput, ${(peer.medianMicros / parseMarkdown.medianMicros).toFixed(2)} medians ` +
      `(issue 21's goal: 5)`,
  );
  return { parseMarkdown, markdownEntry, parseHtml, peer, ratio };
}
