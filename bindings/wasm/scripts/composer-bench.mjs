// The composer's Enter and Backspace in a long message (issue 50): in headless Chromium (Debian's,
// through playwright-core, as the tests), a message of about 14,000 UTF-16 units in about 1,300
// runs over 144 lines is set in <chatmark-composer>; the caret goes to the middle of a line in
// the middle, and Enter and Backspace (which joins the line back) alternate, a frame after each
// as when a person types. Printed per key: the median and p95 of the time from keydown (a
// capturing listener on the document) to the composer's `input` event, and to the end of the
// layout that follows (a second listener reading offsetHeight). Two messages: the issue's
// (a quarter of the lines list items, 1,296 runs), and the worst case for the layout, every
// line plain (one paragraph for the browser to lay out). Timing is printed, never asserted.
//   npm run bench:composer [-- --rounds N]     (after npm run build)
import { existsSync } from 'node:fs';
import { CHROMIUM, launchChromium, serve } from '../test/helpers.mjs';

if (!existsSync(CHROMIUM)) {
  console.error(`composer bench: no ${CHROMIUM} (bash scripts/wasm installs it)`);
  process.exit(1);
}
const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? +process.argv[at + 1] : 41;
const WARM = 5;

/** The long message's markdown: 144 lines of about 97 units, 9 runs each; every `items`th
 * line a list item. */
function longMarkdown(items) {
  const lines = [];
  for (let k = 0; k < 144; k++) {
    const words = [
      `line ${k}`,
      `**bold ${k}**`,
      'plain words',
      `{red}red ${k}{/red}`,
      '_italic_',
      'more plain text',
      '~~gone~~',
      '{green}green{/green}',
      '<big>big</big>',
      '**_both_**',
      'and that is the end',
    ];
    lines.push((k % items === items - 1 ? '- ' : '') + words.join(' '));
  }
  return lines.join('\n');
}

/** Times the keys in a new page holding the message of `markdown`; prints the figures. */
async function bench(context, origin, name, markdown) {
  const p = await context.newPage();
  await p.goto(`${origin}/test/page.html`);
  const size = await p.evaluate(async (md) => {
    await import('/js/composer.min.js');
    const engine = await import('/js/browser.js');
    await engine.default();
    document.body.innerHTML = '<chatmark-composer maxlength="20000"></chatmark-composer>';
    const c = document.querySelector('chatmark-composer');
    await c.ready;
    const t0 = performance.now();
    c.value = engine.parseMarkdown(md);
    const setMs = performance.now() - t0;
    window.times = [];
    let start = 0;
    document.addEventListener('keydown', () => (start = performance.now()), true);
    c.addEventListener('input', () => {
      const input = performance.now() - start;
      void document.body.offsetHeight; // the layout the change needs
      window.times.push([input, performance.now() - start]);
    });
    const line = c.value.text.split('\n').slice(0, 70).join('\n').length + 1;
    c.setSelectionRange(line + 30);
    return { units: c.value.text.length, runs: c.value.text_styles.length, setMs };
  }, markdown);
  const frame = () => p.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
  await frame();
  const keys = { Enter: [], Backspace: [] };
  for (let k = 0; k < WARM + ROUNDS; k++) {
    for (const key of ['Enter', 'Backspace']) {
      await p.evaluate(() => (window.times = []));
      await p.keyboard.press(key);
      await frame();
      const [t] = await p.evaluate(() => window.times);
      if (k >= WARM && t) keys[key].push(t);
    }
  }
  const units = await p.evaluate(() => document.querySelector('chatmark-composer').value.text.length);
  if (units !== size.units) throw new Error(`the message changed: ${units} units, not ${size.units}`);
  await p.close();
  const stat = (xs, q) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  console.log(`${name}: ${size.units} units, ${size.runs} runs (setting value: ${size.setMs.toFixed(1)} ms)`);
  for (const [key, times] of Object.entries(keys)) {
    const input = times.map((t) => t[0]);
    const layout = times.map((t) => t[1]);
    console.log(
      `  ${key.padEnd(9)} keydown to input: median ${stat(input, 0.5).toFixed(2)} ms, p95 ${stat(input, 0.95).toFixed(2)} ms; ` +
        `to layout done: median ${stat(layout, 0.5).toFixed(2)} ms, p95 ${stat(layout, 0.95).toFixed(2)} ms`,
    );
  }
}

const server = await serve({ isolated: true }); // 5 µs timers
const browser = await launchChromium();
try {
  console.log(`composer bench: ${ROUNDS} of each key after ${WARM} of warm-up, a frame after each`);
  await bench(browser.context, server.origin, 'a list item every 4 lines', longMarkdown(4));
  await bench(browser.context, server.origin, 'every line plain (one paragraph)', longMarkdown(Infinity));
} finally {
  await browser.close();
  await server.close();
}
