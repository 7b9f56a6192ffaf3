// A deterministic corpus of random sendMessage bodies, biased toward the markup of both
// dialects: the same seed gives the same bodies on every machine.
import { STYLE_CODES } from '../js/engine.js';

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MARKDOWN = [
  '*',
  '**',
  '***',
  '_',
  '__',
  '~~',
  '~',
  '`',
  '```',
  '\\',
  '\\*',
  '{red}',
  '{/red}',
  '{green}',
  '{/green}',
  '{big}',
  '{/big}',
  '{underline}',
  '{/underline}',
  '<red>',
  '</red>',
  '<orange>',
  '</yellow>',
  '# ',
  '## ',
  '#### ',
  '- ',
  '* ',
  '+ ',
  '1. ',
  '12. ',
  '> ',
  '>> ',
  '  ',
  '    ',
  '\n',
  '\n\n',
  '\r\n',
  // whole spans, so that a good share of messages carry styles
  '**bold**',
  '*it*',
  '_it_',
  '__b__',
  '~~del~~',
  '{red}r{/red}',
  '<big>B</big>',
  '`code`',
  '***both***',
  '{underline}u{/underline}',
];
const HTML = [
  '<b>',
  '</b>',
  '<i>',
  '</i>',
  '<u>',
  '<s>',
  '</s>',
  '<strong>',
  '</em>',
  '<del>',
  '<h1>',
  '</h1>',
  '<h3>',
  '<big>',
  '<small>',
  '</small>',
  '<ul>',
  '</ul>',
  '<ol>',
  '<li>',
  '</li>',
  '<blockquote>',
  '</blockquote>',
  '<br>',
  '<br/>',
  '<p>',
  '</p>',
  '<div>',
  '<span style="color:#db342e">',
  '<span style="font-weight:bold;font-style:italic">',
  '</span>',
  '<font color="green">',
  '</font>',
  '<span style="text-decoration: line-through">',
  '<a href="x">',
  '</a>',
  '<!-- c -->',
  '<script>',
  '</script>',
  '&amp;',
  '&lt;',
  '&gt',
  '&#65;',
  '&#x1F600;',
  '&nbsp;',
  '&notin;',
  '&notit;',
  '&',
  '<',
  '>',
  '"',
  "'",
  '=',
  '/',
  '<b',
  '</',
  '<!DOCTYPE html>',
  '<![CDATA[x]]>',
];
const TEXT = [
  'a',
  'b',
  'word',
  'x y',
  ' ',
  '  ',
  '\t',
  '.',
  ',',
  '!',
  '(',
  ')',
  '[',
  ']',
  'é',
  'ß',
  'Ж',
  '中',
  '😀',
  '👍🏽',
  '\u200d',
  '\u00a0',
  '\u2028',
  '\ud800',
  '\udc00',
  '\ufffd',
  '0',
  '7',
  'snake_case',
];
// every code of the closed set (spec 1.1), then codes N2 ignores
const CODES = [...STYLE_CODES, 'B', 'zz', '', ' b'];

function pick(r, xs) {
  return xs[Math.floor(r() * xs.length)];
}

function text(r, pieces) {
  const n = Math.floor(r() * r() * 40) + (r() < 0.98 ? 1 : 0);
  let s = '';
  for (let k = 0; k < n; k++) {
    const u = r();
    s += u < 0.45 ? pick(r, pieces) : u < 0.6 ? pick(r, u < 0.52 ? MARKDOWN : HTML) : pick(r, TEXT);
  }
  return s;
}

function run(r, len) {
  const num = () => {
    const u = r();
    if (u < 0.8) return Math.floor(r() * (len + 3));
    if (u < 0.85) return -Math.floor(r() * 3);
    if (u < 0.9) return Math.floor(r() * len) + 0.5;
    if (u < 0.95) return String(Math.floor(r() * len));
    return undefined;
  };
  const codes = Array.from({ length: Math.floor(r() * 4) }, () => pick(r, CODES));
  const st = r() < 0.8 ? codes : r() < 0.7 ? codes.join(r() < 0.5 ? ',' : ', ') : 5;
  const o = { start: num(), len: num(), st };
  return r() < 0.97 ? o : pick(r, [null, 3, 'run', [0, 1]]);
}

/**
 * `count` bodies of one mode ('markdown', 'html' or 'plain'); now and then an edge of
 * resolution (a mode spelled otherwise, an unknown mode, no text, text over the limit).
 */
export function corpus(mode, count, seed) {
  const r = prng(seed);
  const pieces = mode === 'html' ? HTML : mode === 'markdown' ? MARKDOWN : [...MARKDOWN, ...HTML];
  const out = [];
  for (let k = 0; k < count; k++) {
    const body = { text: text(r, pieces) };
    if (mode !== 'plain') body.parse_mode = r() < 0.95 ? mode : pick(r, [mode.toUpperCase(), 'rtf', null]);
    if (mode === 'plain' || r() < 0.05) {
      const len = body.text.length;
      body.text_styles =
        r() < 0.97 ? Array.from({ length: Math.floor(r() * 6) }, () => run(r, len)) : pick(r, [{}, 'x', null]);
    }
    const u = r();
    if (u < 0.005) delete body.text;
    else if (u < 0.01) body.text = 'x'.repeat(1999 + Math.floor(r() * 3));
    else if (u < 0.012) body.text = 42;
    out.push(body);
  }
  return out;
}
