// The JS API through the Node entry: shapes, errors, options, L2 and UTF-16 offsets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as chatmark from 'chatmark';
import { about } from '../js/api.js';
import { judge } from './helpers.mjs';
import * as markdown from 'chatmark/markdown';
import {
  ChatmarkError,
  STYLE_CODES,
  normalizeStyles,
  parse,
  parseHtml,
  parseMarkdown,
  resolveJsonl,
  resolveSendMessage,
  toHtml,
  toMarkdown,
  version,
} from 'chatmark';

test('parse answers plain wire-shaped objects', () => {
  const f = parseMarkdown('Hello **world**');
  assert.deepEqual(f, { text: 'Hello world', text_styles: [{ start: 6, len: 5, st: ['b'] }] });
  assert.equal(Object.getPrototypeOf(f), Object.prototype);
  const body = { chat_id: 1, ...f };
  assert.deepEqual(resolveSendMessage(body), f);
  assert.deepEqual(parse('**x**', 'plain'), { text: '**x**', text_styles: [] });
  assert.deepEqual(parse('**x**'), { text: '**x**', text_styles: [] });
  assert.deepEqual(parse('**x**', 'MARKDOWN').text, 'x');
  assert.deepEqual(parseHtml('a b').text, 'a b');
});

test('offsets are JS string indices (UTF-16)', () => {
  const f = parseMarkdown('😀 **é😀**');
  const [run] = f.text_styles;
  assert.equal(f.text.slice(run.start, run.start + run.len), 'é😀');
});

test('lone surrogates become U+FFFD, one unit, offsets kept (L2)', () => {
  for (const text of ['\ud800**a**', '\udc00**a**']) {
    const f = parseMarkdown(text);
    assert.equal(f.text, '\ufffda');
    assert.deepEqual(f.text_styles, [{ start: 1, len: 1, st: ['b'] }]);
    const r = resolveSendMessage({ chat_id: 1, text, parse_mode: 'markdown' });
    assert.deepEqual(r, f);
  }
  assert.deepEqual(normalizeStyles('\ud800ab', [{ start: 1, len: 2, st: ['i'] }]), {
    text_styles: [{ start: 1, len: 2, st: ['i'] }],
  });
});

test('a text is answered as sent exactly when no unit changed, at every place (L2)', () => {
  // the wasm looks for lone surrogates sixteen units a register, the last ones in the last
  // sixteen, and compares its output with the input eight units a register, then the rest
  for (let n = 0; n <= 24; n++) {
    const same = 'ab'.repeat(n).slice(0, n);
    assert.equal(parseMarkdown(same).text, same);
    for (let k = 0; k < n; k++) {
      // a lone low or high surrogate at k, or a pair (which stays) from k
      for (const u of ['\udc00', '\ud800']) {
        const lone = `${same.slice(0, k)}${u}${same.slice(k + 1)}`;
        assert.equal(parseMarkdown(lone).text, `${same.slice(0, k)}\ufffd${same.slice(k + 1)}`, `n=${n} k=${k}`);
      }
      const pair = `${same.slice(0, k)}😀${same.slice(k + 2)}`;
      assert.equal(parseMarkdown(pair).text, pair, `n=${n} k=${k}`);
    }
  }
});

test('without a Buffer, as in browsers, the API answers the same (L2)', async () => {
  // in Node the wrapper writes and reads strings with Buffer's write(…, 'utf16le') (past 16
  // units; a charCodeAt loop below) and toString('utf16le', …); a second API over the same
  // instance, given no Buffer, takes the browsers' way: the charCodeAt loop at any length,
  // fromCharCode up to 24 units and TextDecoder above
  const { createApi } = await import('../js/engine.js');
  const { initSync } = await import('../pkg/chatmark.js');
  const api = createApi({ html: true, entry: 'chatmark' });
  api.markReady(initSync(), {});
  const texts = ['**a** b', 'Đặc _bạn_ ~~đặc~~', '😀 **é😀**', '\ud800**a**', `${'x'.repeat(40)} *y*`, 'a'.repeat(16)];
  for (const text of texts) {
    assert.deepEqual(api.parseMarkdown(text), chatmark.parseMarkdown(text), text);
    assert.deepEqual(api.parseHtml(`<b>${text}</b>`), chatmark.parseHtml(`<b>${text}</b>`), text);
    const diagnostics = { diagnostics: true };
    assert.deepEqual(
      api.parseMarkdown(`{red}${text}`, diagnostics),
      chatmark.parseMarkdown(`{red}${text}`, diagnostics),
    );
  }
});

test('diagnostics on request', () => {
  const f = parseMarkdown('ab {red}x', { diagnostics: true });
  assert.deepEqual(
    f.diagnostics.map((d) => [d.code, d.start, d.len]),
    [['unclosed_tag', 3, 5]],
  );
  assert.equal('diagnostics' in parseMarkdown('ab {red}x'), false);
  const r = resolveSendMessage(
    { chat_id: 'c', text: 'x', parse_mode: 'markdown', text_styles: [] },
    { diagnostics: true },
  );
  assert.equal(r.diagnostics[0].code, 'text_styles_ignored');
});

test('normalizeStyles takes st as array or comma string and answers canonical runs', () => {
  const styles = [
    { start: 0, len: 3, st: 'i, b' },
    { start: 2, len: 2, st: ['b', 'i', 'c_db342e'] },
    { start: 9, len: 1, st: ['b'] },
  ];
  const canonical = [
    { start: 0, len: 2, st: ['b', 'i'] },
    { start: 2, len: 2, st: ['b', 'i', 'c_db342e'] },
  ];
  // one shape, the diagnostics added on request: with the text, a formatted message
  assert.deepEqual(normalizeStyles('abcdef', styles), { text_styles: canonical });
  const withNotes = normalizeStyles('abcdef', styles, { diagnostics: true });
  assert.deepEqual(Object.keys(withNotes), ['text_styles', 'diagnostics']);
  assert.deepEqual(withNotes.text_styles, canonical);
  // the run from 9 is past the text's end (N3)
  assert.deepEqual(
    withNotes.diagnostics.map((d) => d.code),
    ['run_dropped'],
  );
  const f = { text: 'abcdef', ...normalizeStyles('abcdef', styles) };
  assert.deepEqual(resolveSendMessage({ chat_id: 1, ...f }), f);
  const d = normalizeStyles('ab', [{ start: 0, len: 1, st: ['zz'] }], { diagnostics: true });
  assert.deepEqual(d.text_styles, []);
  assert.equal(d.diagnostics[0].code, 'unknown_style_code');
  assert.throws(() => normalizeStyles('ab', { start: 0 }), { code: 'invalid_text_styles' });
  assert.throws(() => normalizeStyles('ab', undefined), { code: 'invalid_text_styles' });
});

test('refusals throw ChatmarkError with code, field and message', () => {
  const cases = [
    [{ text: 'x' }, 'missing_chat_id', 'chat_id'],
    [{ chat_id: 1 }, 'missing_text', 'text'],
    [{ chat_id: 1, text: 5 }, 'invalid_text', 'text'],
    [{ chat_id: 1, text: '' }, 'text_empty', 'text'],
    [{ chat_id: 1, text: 'x'.repeat(2001) }, 'text_too_long', 'text'],
    [{ chat_id: 1, text: 'x', parse_mode: 'MarkdownV2' }, 'invalid_parse_mode', 'parse_mode'],
    [{ chat_id: 1, text: '- ', parse_mode: 'markdown' }, 'empty_after_formatting', 'text'],
    [{ chat_id: 1, text: 'x', text_styles: 3 }, 'invalid_text_styles', 'text_styles'],
  ];
  for (const [body, code, field] of cases) {
    let err;
    try {
      resolveSendMessage(body);
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof ChatmarkError, `${code}: ${err}`);
    assert.ok(err instanceof Error);
    assert.equal(err.name, 'ChatmarkError');
    if (code !== 'empty_after_formatting') assert.equal(err.field, field);
    assert.equal(err.code, code);
    assert.ok(err.message.length > 0);
    assert.deepEqual(Object.keys(err.toJSON()), ['code', 'field', 'message']);
  }
  assert.throws(() => parse('x', 'rtf'), { name: 'ChatmarkError', code: 'invalid_parse_mode' });
  assert.throws(() => parse(5, 'markdown'), { code: 'invalid_text' });
  assert.throws(() => resolveSendMessage(null), { code: 'missing_chat_id' });
  // only the fields the engine reads are written: a cycle elsewhere does not matter, a
  // value that cannot be written is invalid_json
  const cyclic = { chat_id: 1, text: 'x' };
  cyclic.self = cyclic;
  assert.equal(resolveSendMessage(cyclic).text, 'x');
  const bad = {
    toJSON() {
      throw new Error('no');
    },
  };
  assert.throws(() => resolveSendMessage({ chat_id: 1, text: bad }), { code: 'invalid_json', field: 'body' });
  assert.throws(() => normalizeStyles('x', [bad]), { code: 'invalid_json', field: 'text_styles' });
  assert.throws(() => toHtml(bad), { code: 'invalid_json', field: 'formatted' });
  assert.deepEqual(resolveSendMessage({ chat_id: 12345678901234567890n, text: 'x' }).text, 'x');
});

test('resolve options: checkChatId and limits', () => {
  assert.equal(resolveSendMessage({ text: 'x' }, { checkChatId: false }).text, 'x');
  const long = { chat_id: 1, text: 'x'.repeat(2001) };
  assert.equal(resolveSendMessage(long, { maxTextLen: 0 }).text.length, 2001);
  assert.throws(() => resolveSendMessage({ chat_id: 1, text: 'abcd' }, { maxTextLen: 3 }), {
    code: 'text_too_long',
  });
  const styles = [
    { start: 0, len: 1, st: ['b'] },
    { start: 0, len: 1, st: ['i'] },
  ];
  assert.throws(() => resolveSendMessage({ chat_id: 1, text: 'ab', text_styles: styles }, { maxTextStyles: 1 }), {
    code: 'too_many_text_styles',
  });
  assert.throws(() => resolveSendMessage({ chat_id: 1, text: 'a' }, { maxTextLen: -1 }), {
    code: 'invalid_options',
  });
});

test('resolveJsonl speaks the CLI contract and never throws', () => {
  assert.equal(
    resolveJsonl('{"text":"**a**","parse_mode":"markdown"}'),
    '{"text":"a","text_styles":[{"start":0,"len":1,"st":["b"]}]}',
  );
  assert.equal(JSON.parse(resolveJsonl('nope')).error.code, 'invalid_json');
  assert.equal(JSON.parse(resolveJsonl('')).error.code, 'invalid_json');
  assert.equal(JSON.parse(resolveJsonl('{"text":"x","chat_id":null}')).text, 'x');
  // as the native reader: any nesting is read, and numbers by value (N1: 1e400 saturates)
  const nest = (n) => `{"text":"x","a":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
  assert.equal(JSON.parse(resolveJsonl(nest(1000))).text, 'x');
  assert.equal(JSON.parse(resolveJsonl(`{"text":"${'['.repeat(300)}"}`)).text, '['.repeat(300));
  for (const n of ['1e400', '-1e309', '1.8e308', '1e308', '1e-400', '123456789012345678901234567890']) {
    assert.equal(JSON.parse(resolveJsonl(`{"text":"x","a":${n}}`)).text, 'x', n);
  }
  const clamped = resolveJsonl('{"text":"ab","text_styles":[{"start":0,"len":1e400,"st":["b"]}]}');
  assert.deepEqual(JSON.parse(clamped).text_styles, [{ start: 0, len: 2, st: ['b'] }]);
  // and so does the API with JavaScript numbers
  const r = resolveSendMessage({ chat_id: Infinity, text: 'ab', text_styles: [{ start: -5, len: Infinity, st: 'i' }] });
  assert.deepEqual(r.text_styles, [{ start: 0, len: 2, st: ['i'] }]);
});

test('normalizeStyles, toHtml and toMarkdown refuse more than 10,000 runs (R6)', () => {
  const runs = Array.from({ length: 10001 }, () => ({ start: 0, len: 1, st: ['b'] }));
  for (const call of [
    () => normalizeStyles('a', runs),
    () => toHtml({ text: 'a', text_styles: runs }),
    () => toMarkdown({ text: 'a', text_styles: runs }),
  ]) {
    assert.throws(call, (e) => e instanceof ChatmarkError && e.code === 'too_many_text_styles');
  }
  assert.equal(normalizeStyles('a', runs.slice(1)).text_styles.length, 1);
});

test('bodies given as verbatim JSON text read as natively (json_reading.jsonl: N1, R6, L2)', () => {
  const cases = readFileSync(new URL('../../../crates/chatmark/tests/data/json_reading.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  assert.ok(cases.length >= 20);
  const misses = cases.map((v) => judge(v, JSON.parse(resolveJsonl(v.input_json)))).filter(Boolean);
  assert.equal(misses.length, 0, misses.join('\n'));
});

test('STYLE_CODES and version agree with the engine and the package', () => {
  const engine = about();
  assert.deepEqual([...STYLE_CODES], engine.codes);
  assert.equal(STYLE_CODES.length, 20);
  assert.ok(Object.isFrozen(STYLE_CODES));
  assert.equal(version, engine.version);
  assert.equal(engine.html, true);
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url)));
  assert.equal(version, pkg.version);
});

test('every entry answers the same', async () => {
  const inline = await import('chatmark/inline');
  const browser = await import('../js/browser.js');
  await browser.default();
  await inline.init();
  const body = { chat_id: 1, text: '- **a** {red}b{/red}', parse_mode: 'markdown' };
  for (const m of [chatmark, inline, browser, markdown]) {
    assert.deepEqual(m.resolveSendMessage(body), chatmark.resolveSendMessage(body));
  }
});

test('toHtml renders a formatted message (W1)', () => {
  const f = parseMarkdown('- **a** {red}b{/red} <x> & "q"');
  const html = toHtml(f);
  assert.match(html, /<li/);
  assert.match(html, /&lt;x&gt; &amp;/);
  assert.deepEqual(parseHtml(html), f);
});

test('toMarkdown reports losslessness (W2)', () => {
  const f = parseMarkdown('**a** *b* ~~c~~ {red}d{/red}');
  const md = toMarkdown(f);
  assert.deepEqual(Object.keys(md).sort(), ['lossless', 'markdown', 'unexpressed']);
  assert.equal(md.lossless, true);
  assert.deepEqual(md.unexpressed, []);
  assert.deepEqual(parseMarkdown(md.markdown), f);
  const lossy = toMarkdown({ text: 'ab', ...normalizeStyles('ab', [{ start: 0, len: 2, st: ['f_13'] }]) });
  assert.equal(lossy.lossless, false);
  assert.deepEqual(lossy.unexpressed, [{ start: 0, len: 2, what: 'code', code: 'f_13' }]);
  assert.throws(() => toHtml({ text_styles: [] }), { name: 'ChatmarkError', code: 'missing_text' });
  assert.throws(() => toMarkdown(null), { code: 'missing_text' });
});

test('chatmark/markdown: markdown and plain as chatmark, HTML refused', () => {
  const engine = markdown.about();
  assert.equal(engine.html, false);
  assert.deepEqual(engine.codes, [...STYLE_CODES]);
  assert.equal(markdown.ChatmarkError, ChatmarkError);
  for (const text of ['Hello **world**', '- a\n- {red}b{/red}', '\ud800 *x*', 'plain']) {
    assert.deepEqual(markdown.parseMarkdown(text), parseMarkdown(text));
    assert.deepEqual(markdown.parse(text, 'PLAIN'), parse(text, 'plain'));
    const f = parseMarkdown(text);
    assert.equal(markdown.toHtml(f), toHtml(f));
    const body = { chat_id: 1, text, parse_mode: 'markdown' };
    assert.deepEqual(
      markdown.resolveSendMessage(body, { diagnostics: true }),
      resolveSendMessage(body, { diagnostics: true }),
    );
  }
  const styles = [{ start: 0, len: 9, st: 'b, zz' }];
  assert.deepEqual(
    markdown.normalizeStyles('abc', styles, { diagnostics: true }),
    normalizeStyles('abc', styles, { diagnostics: true }),
  );
  assert.equal('parseHtml' in markdown, false);
  assert.equal('toMarkdown' in markdown, false);
  const unsupported = { name: 'ChatmarkError', code: 'unsupported_parse_mode', field: 'parse_mode' };
  assert.throws(() => markdown.parse('<b>x</b>', 'HTML'), unsupported);
  assert.throws(() => markdown.resolveSendMessage({ chat_id: 1, text: '<b>x</b>', parse_mode: 'Html' }), unsupported);
  // R8's order: what comes before the mode is still refused first
  assert.throws(() => markdown.resolveSendMessage({ text: 'x', parse_mode: 'html' }), { code: 'missing_chat_id' });
  assert.throws(() => markdown.resolveSendMessage({ chat_id: 1, text: '', parse_mode: 'html' }), {
    code: 'text_empty',
  });
  assert.throws(() => markdown.parse('x', 'rtf'), { code: 'invalid_parse_mode' });
});

test('the boundary: long, non-ASCII and unchanged texts, buffers reused and grown', () => {
  const long = '**é😀** '.repeat(20000);
  const f = parseMarkdown(long);
  assert.equal(f.text, 'é😀 '.repeat(20000));
  assert.equal(f.text_styles.length, 20000);
  assert.deepEqual(f.text_styles[19999], { start: 4 * 19999, len: 3, st: ['b'] });
  // the engine answers "unchanged" and the wrapper hands the input back, made well-formed
  const plain = 'no markup here';
  assert.equal(parseMarkdown(plain).text, plain);
  assert.equal(parse('a\udc00b', 'plain').text, 'a\ufffdb');
  assert.deepEqual(parseMarkdown('**a**'), { text: 'a', text_styles: [{ start: 0, len: 1, st: ['b'] }] });
  // results own their arrays: changing one does not change the next
  parseMarkdown('**a**').text_styles[0].st.push('i');
  assert.deepEqual(parseMarkdown('**a**').text_styles[0].st, ['b']);
  // a long rendering comes back whole
  const html = toHtml({ text: 'x'.repeat(100000), text_styles: [{ start: 0, len: 100000, st: ['b'] }] });
  assert.equal(html.length > 100000, true);
  assert.equal(parseHtml(html).text.length, 100000);
});

test('resolveSendMessage reads values as JSON would write them', () => {
  const date = new Date(0);
  assert.equal(resolveSendMessage({ chat_id: 1, text: date }).text, date.toJSON());
  assert.deepEqual(
    resolveSendMessage({ chat_id: 1n, text: 'abc', text_styles: [{ start: 0n, len: 2.0, st: new String('b') }] })
      .text_styles,
    [{ start: 0, len: 2, st: ['b'] }],
  );
  // NaN writes as null: no chat_id; undefined writes as nothing: no text
  assert.throws(() => resolveSendMessage({ chat_id: NaN, text: 'x' }), { code: 'missing_chat_id' });
  assert.throws(() => resolveSendMessage({ chat_id: 1, text: undefined }), { code: 'missing_text' });
  assert.throws(() => resolveSendMessage({ chat_id: 1.5, text: 'x' }), { code: 'missing_chat_id' });
  assert.throws(() => resolveSendMessage(Object.create({ chat_id: 1, text: 'x' })), { code: 'missing_chat_id' });
});

test('a refusal that grew wasm memory leaves the next call working (chatmark/markdown)', () => {
  // an HTML body resolved as plain text by the markdown-only build, then refused: the wasm
  // memory grew for its 3 MB answer, and the views over it must be made again before the
  // next call writes its input (it used to throw ERR_OUT_OF_RANGE or read nothing)
  const body = { chat_id: 1, text: 'x'.repeat(3_000_000), parse_mode: 'html' };
  assert.throws(() => markdown.resolveSendMessage(body, { maxTextLen: 0 }), { code: 'unsupported_parse_mode' });
  assert.deepEqual(markdown.parseMarkdown('**after** it'), {
    text: 'after it',
    text_styles: [{ start: 0, len: 5, st: ['b'] }],
  });
});

test('split cuts what parse returns into sendable parts, runs and all (S1-S4)', () => {
  for (const api of [chatmark, markdown]) {
    const parts = api.split(api.parseMarkdown('**bold words** and *more* text'), { limit: 12 });
    assert.deepEqual(parts, [
      { text: 'bold words', text_styles: [{ start: 0, len: 10, st: ['b'] }] },
      { text: 'and more', text_styles: [{ start: 4, len: 4, st: ['i'] }] },
      { text: 'text', text_styles: [] },
    ]);
    // a text that fits is one part; an empty one none; the default limit is R1's 2000
    assert.deepEqual(api.split({ text: 'short' }), [{ text: 'short', text_styles: [] }]);
    assert.deepEqual(api.split({ text: '', text_styles: null }), []);
    assert.equal(api.split({ text: 'ab '.repeat(1000) }).length, 2);
    // client runs are normalised first (N1-N5), then clipped
    assert.deepEqual(api.split({ text: 'ab cd', text_styles: [{ start: 1, len: 99, st: 'u' }] }, { limit: 2 }), [
      { text: 'ab', text_styles: [{ start: 1, len: 1, st: ['u'] }] },
      { text: 'cd', text_styles: [{ start: 0, len: 2, st: ['u'] }] },
    ]);
    // never inside a surrogate pair; a lone surrogate is one U+FFFD (C5, L2)
    assert.deepEqual(
      api.split({ text: '😀😀😀' }, { limit: 3 }).map((p) => p.text),
      ['😀', '😀', '😀'],
    );
    assert.deepEqual(
      api.split({ text: 'a\ud800 b' }, { limit: 2 }).map((p) => p.text),
      ['a\ufffd', 'b'],
    );
  }
});

test('split refuses a limit that is not an integer of at least 2, and bad messages (S1)', () => {
  for (const limit of [0, 1, -5, 1.5, '10', true, Number.NEGATIVE_INFINITY]) {
    assert.throws(
      () => chatmark.split({ text: 'text' }, { limit }),
      (e) => e instanceof ChatmarkError && e.code === 'invalid_limit' && e.field === 'limit',
      String(limit),
    );
  }
  assert.equal(chatmark.split({ text: 'a b' }, { limit: Number.POSITIVE_INFINITY }).length, 1);
  // NaN reads as JSON writes it, null: the default limit
  assert.equal(chatmark.split({ text: 'a b' }, { limit: Number.NaN }).length, 1);
  assert.throws(
    () => chatmark.split({}),
    (e) => e.code === 'missing_text',
  );
  assert.throws(
    () => chatmark.split({ text: 5 }),
    (e) => e.code === 'invalid_text',
  );
  assert.throws(
    () => chatmark.split({ text: 'x', text_styles: {} }),
    (e) => e.code === 'invalid_text_styles',
  );
  const line = JSON.parse(chatmark.splitJsonl('{"text":"one two","limit":4}'));
  assert.deepEqual(
    line.parts.map((p) => p.text),
    ['one', 'two'],
  );
  assert.equal(JSON.parse(chatmark.splitJsonl('{"text":"x","limit":1}')).error.code, 'invalid_limit');
  assert.equal(
    JSON.parse(markdown.splitJsonl('{"text":"<b>x</b>","parse_mode":"html"}')).error.code,
    'unsupported_parse_mode',
  );
});
