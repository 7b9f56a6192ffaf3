// <chatmark-composer> (chatmark/composer) driven in headless Chromium (Debian's, through
// playwright-core, served from 127.0.0.1): typing, shortcuts with UTF-16 offsets, every toolbar
// button, keyboard-only use, paste cleaning, the counter at the limit, mode switching, `send`,
// and the chat demo (photographed: target/composer-demo.png; with CHATMARK_SCREENSHOT=1 also
// demo/screenshot.png, the picture the README shows). Plus the size budget and the types.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, launchChromium, pkgRoot, repoRoot, serve } from './helpers.mjs';

const skip = !existsSync(CHROMIUM) && `no ${CHROMIUM} (apt-get install chromium)`;
// gzip -9 bytes of JS the composer entry adds (issue 15; 8 KB since issue 23, 10 KB since issue
// 50: form association and the integration surface); scripts/size-check.mjs prints it too
const BUDGET = 10 * 1024;

test('the composer entry adds at most 10 KB gzip -9 of JS (the shipped, minified file)', () => {
  const js = readFileSync(join(pkgRoot, 'js', 'composer.min.js'));
  const css = readFileSync(join(pkgRoot, 'js', 'composer.css'));
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  console.log(
    `composer.min.js ${js.length} B, gzip -9 ${gz(js)} B (budget ${BUDGET}); composer.css ${css.length} B, gzip -9 ${gz(css)} B`,
  );
  assert.ok(gz(js) <= BUDGET, `composer.min.js is ${gz(js)} B gzipped, over ${BUDGET}`);
});

test('chatmark/commonmark is imported by the composer only when used, never bundled into it (issue 50, 13)', () => {
  const js = readFileSync(join(pkgRoot, 'js', 'composer.min.js'), 'utf8');
  assert.match(js, /import\("\.\/commonmark-browser\.js"\)/);
  assert.doesNotMatch(js, /from_commonmark|chatmark_commonmark/);
});

test('composer.d.ts types a usage example (tsc)', () => {
  const tsc = join(pkgRoot, 'node_modules', '.bin', 'tsc');
  execFileSync(tsc, ['--noEmit', '-p', join(pkgRoot, 'test', 'composer.tsconfig.json')], { stdio: 'inherit' });
});

let server;
let browser;
before(async () => {
  if (skip) return;
  server = await serve({ isolated: true }); // finer timers for the keystroke figures
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page with one connected, ready composer; counts its `input` events and collects `send`s. */
async function open(attrs = '', context = browser.context) {
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e));
  await p.goto(`${server.origin}/test/page.html`);
  await p.evaluate(async (attrs) => {
    await import('/js/composer.min.js');
    window.engine = await import('/js/browser.js');
    document.body.insertAdjacentHTML('beforeend', `<chatmark-composer ${attrs}></chatmark-composer>`);
    const c = document.querySelector('chatmark-composer');
    window.inputs = 0;
    window.sent = [];
    c.addEventListener('input', () => window.inputs++);
    document.addEventListener('send', (e) => window.sent.push(e.detail)); // bubbles out, composed
    await c.ready;
  }, attrs);
  const c = {
    p,
    errors,
    ed: p.locator('chatmark-composer [role=textbox]'),
    value: () => p.evaluate(() => document.querySelector('chatmark-composer').value),
    set: (v) =>
      p.evaluate((v) => {
        document.querySelector('chatmark-composer').value = v;
      }, v),
    select: (s, e) =>
      p.evaluate(([s, e]) => document.querySelector('chatmark-composer').setSelectionRange(s, e), [s, e]),
    button: (name) => p.getByRole('button', { name, exact: true }),
    pressed: (name) => p.getByRole('button', { name, exact: true }).getAttribute('aria-pressed'),
    html: () => p.locator('chatmark-composer .ed').evaluate((e) => e.innerHTML),
    toHtml: (v) => p.evaluate((v) => window.engine.toHtml(v), v),
    /** toHtml(v) as the browser serialises it (character references become characters). */
    shown: (v) =>
      p.evaluate((v) => {
        const t = document.createElement('template');
        t.innerHTML = window.engine.toHtml(v);
        return t.innerHTML;
      }, v),
    counter: () => p.locator('chatmark-composer .ct').textContent(),
    global: (name) => p.evaluate((n) => window[n], name),
    async close() {
      assert.deepEqual(errors, []);
      await p.close();
    },
  };
  return c;
}

/** The content shown is always toHtml(value), but for the <br> that holds a caret after a last \n. */
async function assertShowsValue(c) {
  const v = await c.value();
  assert.equal((await c.html()).replace('<br class="x">', ''), await c.shown(v));
}

test('typing, Enter and Backspace give the plain message', { skip }, async () => {
  const c = await open('placeholder="Say something"');
  assert.equal(await c.ed.getAttribute('role'), 'textbox');
  assert.equal(await c.ed.getAttribute('aria-multiline'), 'true');
  assert.equal(await c.ed.getAttribute('aria-placeholder'), 'Say something');
  await c.ed.click();
  await c.p.keyboard.type('Hello, world');
  assert.deepEqual(await c.value(), { text: 'Hello, world', text_styles: [] });
  assert.ok((await c.global('inputs')) >= 12);
  // the counter describes the text box (aria-describedby), in words
  assert.equal(await c.ed.getAttribute('aria-describedby'), 'ct kh');
  assert.equal(await c.p.locator('chatmark-composer #ct').textContent(), '1988 characters left');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.type('two  spaces ');
  await c.p.keyboard.press('Backspace');
  assert.deepEqual(await c.value(), { text: 'Hello, world\ntwo  spaces', text_styles: [] });
  await assertShowsValue(c);
  // a new line goes on in the inline codes of the line break before it
  await c.p.keyboard.press('Control+b');
  await c.p.keyboard.type('B');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.type('C');
  assert.deepEqual((await c.value()).text_styles, [{ start: 24, len: 3, st: ['b'] }]);
  // edits the composer leaves to the browser (here an editing command) are read back
  await c.ed.evaluate(() =>
    document.execCommand('insertHTML', false, '<i>it</i><img src="/none.png"><script>window.pwned=1</script>'),
  );
  const [run] = (await c.value()).text_styles.slice(1); // whether inside the <b> is the browser's choice
  assert.deepEqual([run.start, run.len, run.st.includes('i')], [27, 2, true]);
  assert.equal((await c.value()).text, 'Hello, world\ntwo  spacesB\nCit');
  await assertShowsValue(c);
  assert.equal(await c.global('pwned'), undefined);
  await c.close();
});

test('Ctrl+B then typing gives a bold run at the right UTF-16 offsets, emoji included', { skip }, async () => {
  const c = await open();
  await c.ed.click();
  await c.p.keyboard.type('Hi 😀 ');
  assert.equal(await c.pressed('Bold'), 'false');
  await c.p.keyboard.press('Control+b');
  assert.equal(await c.pressed('Bold'), 'true'); // the state at the caret, before any text
  await c.p.keyboard.type('bold 🎉');
  await c.p.keyboard.press('Control+b');
  await c.p.keyboard.type(' end');
  // "Hi 😀 " is 6 units (the emoji counts 2); "bold 🎉" is 7
  assert.deepEqual(await c.value(), { text: 'Hi 😀 bold 🎉 end', text_styles: [{ start: 6, len: 7, st: ['b'] }] });
  assert.match(await c.html(), /<b>bold 🎉<\/b>/);
  await c.p.keyboard.press('Control+i');
  await c.p.keyboard.type('!');
  await c.p.keyboard.press('Control+u');
  await c.p.keyboard.press('Control+Shift+X');
  await c.p.keyboard.type('?');
  assert.deepEqual((await c.value()).text_styles.slice(1), [
    { start: 17, len: 1, st: ['i'] },
    { start: 18, len: 1, st: ['i', 'u', 's'] },
  ]);
  // undo takes the last edits back
  await c.p.keyboard.press('Control+z');
  assert.equal((await c.value()).text, 'Hi 😀 bold 🎉 end!');
  await c.p.keyboard.press('Control+Shift+z');
  assert.equal((await c.value()).text, 'Hi 😀 bold 🎉 end!?');
  await assertShowsValue(c);
  await c.close();
});

test('each toolbar button styles the selection, shows its state and toggles back', { skip }, async () => {
  const c = await open();
  const text = 'one two\nthree';
  await c.set({ text, text_styles: [] });
  for (const [name, code] of [
    ['Bold', 'b'],
    ['Italic', 'i'],
    ['Underline', 'u'],
    ['Strikethrough', 's'],
    ['Red', 'c_db342e'],
    ['Orange', 'c_f27806'],
    ['Yellow', 'c_f7b503'],
    ['Green', 'c_15a85f'],
    ['A+ Big', 'f_18'],
    ['a− Small', 'f_13'],
  ]) {
    await c.select(4, 7);
    assert.equal(await c.pressed(name), 'false', name);
    await c.button(name).click();
    assert.deepEqual(await c.value(), { text, text_styles: [{ start: 4, len: 3, st: [code] }] }, name);
    assert.equal(await c.pressed(name), 'true', name);
    await assertShowsValue(c);
    await c.button(name).click();
    assert.deepEqual(await c.value(), { text, text_styles: [] }, name);
    assert.equal(await c.pressed(name), 'false', name);
  }
  // one colour (one size) at a time: the later wins (1.1)
  await c.select(0, 3);
  await c.button('Red').click();
  await c.button('Green').click();
  await c.button('A+ Big').click();
  await c.button('a− Small').click();
  assert.deepEqual((await c.value()).text_styles, [{ start: 0, len: 3, st: ['f_13', 'c_15a85f'] }]);
  await c.set({ text, text_styles: [] });
  // line codes cover the whole lines the selection touches
  const lines = (...st) => [
    { start: 0, len: 7, st },
    { start: 8, len: 5, st },
  ];
  await c.select(2, 10);
  await c.button('Bulleted list').click();
  assert.deepEqual((await c.value()).text_styles, lines('lst_1'));
  assert.equal(await c.pressed('Bulleted list'), 'true');
  assert.equal(await c.p.locator('chatmark-composer .ed ul > li').count(), 2);
  await c.button('1≡ Numbered list').click();
  assert.deepEqual((await c.value()).text_styles, lines('lst_2'));
  assert.equal(await c.pressed('Bulleted list'), 'false');
  await c.button('Indent').click();
  await c.button('Indent').click();
  assert.deepEqual((await c.value()).text_styles, lines('lst_2', 'ind_2'));
  await assertShowsValue(c);
  await c.button('Outdent').click();
  assert.deepEqual((await c.value()).text_styles, lines('lst_2', 'ind_1'));
  await c.button('1≡ Numbered list').click();
  await c.button('Outdent').click();
  assert.deepEqual((await c.value()).text_styles, []);
  // a list continues on Enter; Enter on its empty item leaves it (P4: empty lines carry none)
  await c.set({ text: '', text_styles: [] });
  await c.ed.click();
  await c.button('Bulleted list').click();
  await c.p.keyboard.type('milk');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.type('eggs');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.type('done');
  assert.deepEqual(await c.value(), {
    text: 'milk\neggs\ndone',
    text_styles: [
      { start: 0, len: 4, st: ['lst_1'] },
      { start: 5, len: 4, st: ['lst_1'] },
    ],
  });
  await c.close();
});

test('the toolbar works with the keyboard alone (one tab stop, arrows, aria-pressed)', { skip }, async () => {
  const c = await open();
  await c.set({ text: 'abc', text_styles: [] });
  const k = c.p.keyboard;
  await k.press('Tab'); // the toolbar's one tab stop: Bold
  assert.equal(
    await c.p.evaluate(() => document.querySelector('chatmark-composer').shadowRoot.activeElement.ariaLabel),
    'Bold',
  );
  await k.press('ArrowRight');
  await k.press('Tab'); // into the text, caret where it was (the end)
  for (let n = 0; n < 3; n++) await k.press('Shift+ArrowLeft');
  await k.press('Shift+Tab'); // back to the toolbar, on Italic now
  assert.equal(
    await c.p.evaluate(() => document.querySelector('chatmark-composer').shadowRoot.activeElement.ariaLabel),
    'Italic',
  );
  await k.press('Enter');
  assert.deepEqual(await c.value(), { text: 'abc', text_styles: [{ start: 0, len: 3, st: ['i'] }] });
  assert.equal(await c.pressed('Italic'), 'true');
  const focused = () =>
    c.p.evaluate(() => document.querySelector('chatmark-composer').shadowRoot.activeElement.ariaLabel);
  assert.equal(await focused(), 'Message'); // back in the text, the selection kept
  await k.press('Control+b');
  assert.deepEqual(await c.value(), { text: 'abc', text_styles: [{ start: 0, len: 3, st: ['b', 'i'] }] });
  await k.press('Shift+Tab'); // the toolbar's tab stop stayed on Italic
  assert.equal(await focused(), 'Italic');
  await k.press('ArrowLeft'); // Bold
  await k.press('ArrowLeft'); // wraps to the last button: the markdown switch
  await k.press(' ');
  assert.equal(await c.p.evaluate(() => document.querySelector('chatmark-composer').mode), 'markdown');
  assert.equal(await focused(), 'Message, markdown source');
  await c.close();
});

test('deleting: list items unlist first, words and selections go, cut and IME read back', { skip }, async () => {
  const c = await open();
  const k = c.p.keyboard;
  await c.set({
    text: 'one\ntwo',
    text_styles: [
      { start: 0, len: 3, st: ['lst_1'] },
      { start: 4, len: 3, st: ['lst_1'] },
    ],
  });
  await c.select(4);
  await k.press('Backspace'); // at the start of a list item: out of the list first
  assert.deepEqual(await c.value(), { text: 'one\ntwo', text_styles: [{ start: 0, len: 3, st: ['lst_1'] }] });
  await k.press('Backspace'); // then the line break: the joined line is the first line's (1.3)
  assert.deepEqual(await c.value(), { text: 'onetwo', text_styles: [{ start: 0, len: 6, st: ['lst_1'] }] });
  await c.set({ text: 'keep these words', text_styles: [{ start: 5, len: 5, st: ['b'] }] });
  await c.select(16);
  await k.press('Control+Backspace'); // the browser's word boundary, through getTargetRanges
  assert.deepEqual(await c.value(), { text: 'keep these ', text_styles: [{ start: 5, len: 5, st: ['b'] }] });
  await c.select(2, 7);
  await k.press('Delete');
  assert.deepEqual(await c.value(), { text: 'keese ', text_styles: [{ start: 2, len: 3, st: ['b'] }] });
  await assertShowsValue(c);
  // cut is the browser's own edit: read back through parseHtml
  await c.set({
    text: 'a bold\nword',
    text_styles: [
      { start: 2, len: 4, st: ['b'] },
      { start: 7, len: 4, st: ['i'] },
    ],
  });
  await c.select(4, 9);
  await k.press('Control+x');
  assert.deepEqual(await c.value(), {
    text: 'a bord',
    text_styles: [
      { start: 2, len: 2, st: ['b'] },
      { start: 4, len: 2, st: ['i'] },
    ],
  });
  await assertShowsValue(c);
  // so is an IME composition, read back when it ends
  await c.set({ text: 'ab', text_styles: [{ start: 0, len: 2, st: ['u'] }] });
  await c.select(1);
  const cdp = await browser.context.newCDPSession(c.p);
  await cdp.send('Input.imeSetComposition', { text: 'か', selectionStart: 1, selectionEnd: 1 });
  await cdp.send('Input.imeSetComposition', { text: 'かな', selectionStart: 2, selectionEnd: 2 });
  await cdp.send('Input.insertText', { text: '仮名' });
  assert.deepEqual(await c.value(), { text: 'a仮名b', text_styles: [{ start: 0, len: 4, st: ['u'] }] });
  await k.type('!');
  assert.deepEqual(await c.value(), { text: 'a仮名!b', text_styles: [{ start: 0, len: 5, st: ['u'] }] });
  await assertShowsValue(c);
  await c.close();
});

/** Pastes `data` as `type` into the composer's editor, as a clipboard paste event. */
function pasteInto(c, type, data) {
  return c.ed.evaluate(
    (ed, [type, data]) => {
      const dt = new DataTransfer();
      dt.setData(type, data);
      ed.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true, composed: true }),
      );
    },
    [type, data],
  );
}

const DOCS =
  '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-4f1c">' +
  '<p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;">' +
  '<span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:700;font-style:normal;text-decoration:none;vertical-align:baseline;white-space:pre-wrap;">Bold</span>' +
  '<span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;">, then </span>' +
  '<span style="font-size:11pt;font-family:Arial,sans-serif;color:#db342e;font-weight:400;font-style:italic;">red italic</span></p>' +
  '<script>window.pwned = 1</script><img src="/nothing.png" onerror="window.pwned = 2">' +
  '<style>p { color: red }</style>' +
  '<ul style="margin-top:0;margin-bottom:0;"><li dir="ltr"><p dir="ltr"><span style="font-size:18pt;text-decoration:line-through;">struck big</span></p></li></ul></b>';

test('paste: HTML from a document keeps the supported styles, drops scripts and images', { skip }, async () => {
  const c = await open();
  await c.ed.click();
  await c.p.keyboard.type('Notes: ');
  const paste = (type, data) => pasteInto(c, type, data);
  await paste('text/html', DOCS);
  // H4: 11pt is 14.7px, so f_15, the normal size, which looks like none and is dropped;
  // #000000 is no palette colour; 18pt is 24px, so f_20
  assert.deepEqual(await c.value(), {
    text: 'Notes: Bold, then red italic\nstruck big',
    text_styles: [
      { start: 7, len: 4, st: ['b'] },
      { start: 18, len: 10, st: ['i', 'c_db342e'] },
      { start: 29, len: 10, st: ['s', 'f_20', 'lst_1'] },
    ],
  });
  await assertShowsValue(c);
  await new Promise((ok) => setTimeout(ok, 200)); // time for an image error handler, were one live
  assert.equal(await c.global('pwned'), undefined);
  assert.equal(await c.p.locator('chatmark-composer .ed img, chatmark-composer .ed script').count(), 0);
  // a drop is cleaned the same way
  await c.set({ text: 'x', text_styles: [] });
  await c.select(1);
  await c.ed.evaluate((ed) => {
    const dt = new DataTransfer();
    dt.setData('text/html', '<u>under</u><script>window.pwned = 3</script>');
    ed.dispatchEvent(
      new InputEvent('beforeinput', { inputType: 'insertFromDrop', dataTransfer: dt, bubbles: true, cancelable: true }),
    );
  });
  assert.deepEqual(await c.value(), { text: 'xunder', text_styles: [{ start: 1, len: 5, st: ['u'] }] });
  // plain text stays plain: markup characters are text
  await c.set({ text: '', text_styles: [] });
  await c.ed.click();
  await paste('text/plain', '**not bold** <b>nor this</b>\r\nline two');
  assert.deepEqual(await c.value(), { text: '**not bold** <b>nor this</b>\nline two', text_styles: [] });
  await c.close();
});

test('the counter at 2,000 and 2,001 units; send refused while over', { skip }, async () => {
  const c = await open();
  await c.set({ text: 'x'.repeat(2000), text_styles: [] });
  assert.equal(await c.counter(), '0');
  assert.equal(await c.p.locator('chatmark-composer[over]').count(), 0);
  await c.set({ text: `${'x'.repeat(1999)}😀`, text_styles: [] }); // 2,001 units
  assert.equal(await c.counter(), '-1');
  assert.equal(await c.p.locator('chatmark-composer[over]').count(), 1);
  const red = await c.p.locator('chatmark-composer .ct').evaluate((e) => getComputedStyle(e).color);
  assert.equal(await contrastIn(c.p, red, 'rgb(219, 52, 46)'), 1); // marked: #db342e
  assert.equal(await c.ed.getAttribute('aria-invalid'), 'true');
  assert.equal((await c.value()).text.length, 2001); // still reported
  await c.ed.click();
  await c.p.keyboard.press('Control+End');
  await c.p.keyboard.press('Control+Enter');
  assert.equal(await c.button('Send').isDisabled(), true);
  await c.button('Send').click({ force: true });
  assert.deepEqual(await c.global('sent'), []);
  await c.ed.click();
  await c.p.keyboard.press('Control+End');
  await c.p.keyboard.press('Backspace'); // the emoji, both units
  assert.equal(await c.counter(), '1');
  await c.p.keyboard.type('y');
  assert.equal(await c.counter(), '0');
  await c.p.keyboard.press('Control+Enter');
  assert.equal((await c.global('sent')).length, 1);
  // max-length is an attribute
  await c.p.evaluate(() => document.querySelector('chatmark-composer').setAttribute('max-length', '10'));
  await c.ed.click();
  await c.p.keyboard.type('0123456789!');
  assert.equal(await c.counter(), '-1');
  // trailing whitespace is not sent, so it is not counted: ten characters and spaces fit
  await c.set({ text: '0123456789  \n ', text_styles: [] });
  assert.equal(await c.counter(), '0');
  assert.equal(await c.p.locator('chatmark-composer[over]').count(), 0);
  assert.equal(await c.button('Send').isDisabled(), false);
  await c.close();
});

test('switching to markdown and back keeps the message', { skip }, async () => {
  const c = await open();
  const v = await c.p.evaluate(() =>
    window.engine.parseMarkdown('# Plan\n- **milk** and {red}eggs{/red}\n  - _bread_ ~~jam~~ 😀'),
  );
  await c.set(v);
  await c.p.evaluate(() => document.querySelector('chatmark-composer').setAttribute('mode', 'markdown'));
  const ta = c.p.locator('chatmark-composer textarea');
  assert.ok(await ta.isVisible());
  assert.ok(!(await c.ed.isVisible()));
  const md = await c.p.evaluate((v) => window.engine.toMarkdown(v), v);
  assert.ok(md.lossless);
  assert.equal(await ta.inputValue(), md.markdown);
  assert.deepEqual(await c.value(), v);
  assert.equal(await c.p.locator('chatmark-composer .pv').evaluate((e) => e.innerHTML), await c.toHtml(v));
  assert.equal(await c.button('Bold').isDisabled(), true);
  // editing the source re-reads it (parseMarkdown), preview and value follow
  await ta.focus();
  await c.p.keyboard.press('Control+End');
  await c.p.keyboard.type(' {green}ok{/green}');
  const edited = await c.value();
  assert.deepEqual(
    edited,
    await c.p.evaluate((s) => window.engine.parseMarkdown(s), `${md.markdown} {green}ok{/green}`),
  );
  assert.ok(edited.text_styles.some((r) => r.st.includes('c_15a85f')));
  // back through the toolbar's switch
  assert.equal(await c.pressed('M↓ Markdown source'), 'true');
  await c.button('M↓ Markdown source').click();
  assert.equal(await c.pressed('M↓ Markdown source'), 'false');
  assert.ok(await c.ed.isVisible());
  assert.deepEqual(await c.value(), edited);
  await assertShowsValue(c);
  // what markdown cannot say (f_13) is named, and kept when the source is not edited (W2)
  const small = { text: 'tiny', text_styles: [{ start: 0, len: 4, st: ['f_13'] }] };
  await c.set(small);
  await c.button('M↓ Markdown source').click();
  assert.match(await c.p.locator('chatmark-composer .nt').textContent(), /f_13/);
  await c.button('M↓ Markdown source').click();
  assert.deepEqual(await c.value(), small);
  await c.close();
  // the attribute from the start; send from the source clears it
  const m = await open('mode="markdown"');
  const src = m.p.locator('chatmark-composer textarea');
  await src.focus();
  await m.p.keyboard.type('**hi** there');
  await m.p.keyboard.press('Control+Enter');
  assert.deepEqual(await m.global('sent'), [{ text: 'hi there', text_styles: [{ start: 0, len: 2, st: ['b'] }] }]);
  assert.equal(await src.inputValue(), '');
  await m.close();
});

test('send: Ctrl+Enter and the button dispatch the value, then clear; empty is refused', { skip }, async () => {
  const c = await open();
  await c.ed.click();
  await c.p.keyboard.press('Control+Enter');
  assert.deepEqual(await c.global('sent'), []);
  await c.p.keyboard.press('Control+b');
  await c.p.keyboard.type('hi');
  await c.p.keyboard.press('Control+Enter');
  assert.deepEqual(await c.global('sent'), [{ text: 'hi', text_styles: [{ start: 0, len: 2, st: ['b'] }] }]);
  assert.deepEqual(await c.value(), { text: '', text_styles: [] });
  await c.p.keyboard.type('yo');
  await c.button('Send').click();
  assert.deepEqual((await c.global('sent'))[1], { text: 'yo', text_styles: [] });
  // a listener that cancels keeps the text
  await c.p.evaluate(() =>
    document.querySelector('chatmark-composer').addEventListener('send', (e) => e.preventDefault()),
  );
  await c.ed.click();
  await c.p.keyboard.type('kept');
  await c.p.keyboard.press('Control+Enter');
  assert.equal((await c.global('sent')).length, 3);
  assert.equal((await c.value()).text, 'kept');
  await c.close();
});

test('import defines the element once, and leaves one already defined alone', { skip }, async () => {
  const p = await browser.context.newPage();
  await p.goto(`${server.origin}/test/page.html`);
  const out = await p.evaluate(async () => {
    class Mine extends HTMLElement {}
    customElements.define('chatmark-composer', Mine);
    const m = await import('/js/composer.min.js');
    return { kept: customElements.get('chatmark-composer') === Mine, exported: typeof m.ChatmarkComposer };
  });
  assert.deepEqual(out, { kept: true, exported: 'function' });
  await p.close();
});

test('another engine (chatmark/inline) can be given; theming by --cm-* properties', { skip }, async () => {
  const p = await browser.context.newPage();
  await p.goto(`${server.origin}/test/page.html`);
  const out = await p.evaluate(async () => {
    const { ChatmarkComposer } = await import('/js/composer.min.js');
    ChatmarkComposer.engine = await import('/pkg/inline.js');
    const c = document.createElement('chatmark-composer');
    c.style.setProperty('--cm-accent', 'rgb(1, 2, 3)');
    c.value = { text: 'x y', text_styles: [{ start: 2, len: 1, st: ['s'] }] }; // before it is ready
    document.body.append(c);
    await c.ready;
    const send = c.shadowRoot.querySelector('[part=send]');
    return {
      value: c.value,
      html: c.shadowRoot.querySelector('[role=textbox]').innerHTML,
      accent: getComputedStyle(send).backgroundColor,
    };
  });
  assert.deepEqual(out, {
    value: { text: 'x y', text_styles: [{ start: 2, len: 1, st: ['s'] }] },
    html: 'x <s>y</s>',
    accent: 'rgb(1, 2, 3)',
  });
  await p.close();
});

test('the importing module may still set the engine or call init(url) after the import (issue 24)', {
  skip,
}, async () => {
  const p = await browser.context.newPage();
  const wasm = [];
  p.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(new URL(r.url()).pathname));
  await p.goto(`${server.origin}/test/page.html`);
  // a connected element is upgraded, and so starts getting ready, when the composer module runs,
  // before the body of the module importing it
  const out = await p.evaluate(async () => {
    document.body.innerHTML = '<chatmark-composer></chatmark-composer>';
    const script = document.createElement('script');
    script.type = 'module';
    script.textContent = `
      import { ChatmarkComposer } from '/js/composer.min.js';
      import * as inline from '/pkg/inline.js';
      ChatmarkComposer.engine = inline;
      window.done = document.querySelector('chatmark-composer').ready;`;
    document.head.append(script);
    while (!window.done) await new Promise((ok) => setTimeout(ok, 10));
    await window.done;
    return document.querySelector('chatmark-composer').shadowRoot.querySelector('[role=textbox]').contentEditable;
  });
  assert.equal(out, 'true');
  assert.deepEqual(wasm, []); // chatmark/inline's engine, not the browser entry's fetch
  await p.close();
});

test('the chat demo: a ready draft, bubbles rendered with toHtml, the request body', { skip }, async () => {
  const p = await browser.context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e));
  await p.setViewportSize({ width: 1280, height: 800 });
  await p.clock.setFixedTime(new Date(2026, 10, 23, 9, 42)); // the same picture every time
  await p.goto(`${server.origin}/demo/index.html`);
  await p.waitForSelector('html[data-ready=true]');
  const draft = await p.evaluate(() => document.querySelector('chatmark-composer').value);
  assert.equal(draft.text, 'Shopping\nmilk and eggs\nbread, jam honey\nthe big jar');
  assert.ok(draft.text_styles.length >= 6);
  assert.equal(await p.locator('.bubble').count(), 3);
  const seeded = JSON.parse(await p.locator('#body').textContent());
  assert.deepEqual(seeded.text_styles, [{ start: 6, len: 9, st: ['b'] }]);
  await p.getByRole('button', { name: 'Send', exact: true }).click();
  assert.equal(await p.locator('.bubble').count(), 4);
  const last = p.locator('.bubble.me').last();
  assert.equal(
    await last
      .locator('b')
      .filter({ hasText: /^milk$/ })
      .count(),
    1,
  );
  assert.equal(await last.locator('li').count(), 3);
  assert.equal(
    await last.getByText('eggs', { exact: true }).evaluate((e) => getComputedStyle(e).color),
    'rgb(219, 52, 46)',
  );
  assert.deepEqual(JSON.parse(await p.locator('#body').textContent()), { chat_id: 1, ...draft });
  assert.equal((await p.evaluate(() => document.querySelector('chatmark-composer').value)).text, '');
  // a new draft, then the picture: a sent message, its body, and the composer in use
  await p.locator('chatmark-composer [role=textbox]').click();
  await p.keyboard.press('Control+b');
  await p.keyboard.type('Got it');
  await p.keyboard.press('Control+b');
  await p.keyboard.type(', see you at ');
  await p.getByRole('button', { name: 'Green', exact: true }).click();
  await p.keyboard.type('6 pm');
  await p.getByRole('button', { name: 'Green', exact: true }).click();
  await p.keyboard.type(' 🎂');
  assert.deepEqual(await p.evaluate(() => document.querySelector('chatmark-composer').value), {
    text: 'Got it, see you at 6 pm 🎂',
    text_styles: [
      { start: 0, len: 6, st: ['b'] },
      { start: 19, len: 4, st: ['c_15a85f'] },
    ],
  });
  await p.mouse.move(0, 0); // no hover
  mkdirSync(join(repoRoot, 'target'), { recursive: true });
  const shot = join(repoRoot, 'target', 'composer-demo.png');
  await p.screenshot({ path: shot });
  if (process.env.CHATMARK_SCREENSHOT === '1') copyFileSync(shot, join(pkgRoot, 'demo', 'screenshot.png'));
  // the same at a phone's 360 px and in the dark scheme (the README shows all three)
  const size = p.viewportSize();
  for (const [name, width, scheme] of [
    ['screenshot-360.png', 360, 'light'],
    ['screenshot-dark.png', size.width, 'dark'],
  ]) {
    await p.setViewportSize({ width, height: size.height });
    await p.emulateMedia({ colorScheme: scheme });
    const file = join(repoRoot, 'target', `composer-demo-${name.slice(11)}`);
    await p.screenshot({ path: file });
    if (process.env.CHATMARK_SCREENSHOT === '1') copyFileSync(file, join(pkgRoot, 'demo', name));
  }
  assert.deepEqual(errors, []);
  await p.close();
});

test('the demo over the limit: split-long says how many messages, Send posts each part (issues 48, 50)', {
  skip,
}, async () => {
  const p = await browser.context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e));
  await p.setViewportSize({ width: 1280, height: 800 });
  await p.clock.setFixedTime(new Date(2026, 10, 23, 9, 44));
  await p.goto(`${server.origin}/demo/index.html`);
  await p.waitForSelector('html[data-ready=true]');
  await p.getByRole('button', { name: 'Write a long message' }).click();
  const draft = await p.evaluate(() => document.querySelector('chatmark-composer').value);
  assert.ok(draft.text.length > 2000, `${draft.text.length} units`);
  const over = draft.text.length - 2000;
  assert.equal(
    await p.locator('chatmark-composer [role=status]').textContent(),
    `${over} characters too long (sends as 2 messages)`,
  );
  assert.equal(await p.locator('chatmark-composer .ct').textContent(), `${-over}`);
  const send = p.getByRole('button', { name: 'Send', exact: true });
  assert.equal(await send.isDisabled(), false);
  await p.mouse.move(0, 0);
  const shot = join(repoRoot, 'target', 'composer-demo-long.png');
  await p.locator('.chat').screenshot({ path: shot });
  if (process.env.CHATMARK_SCREENSHOT === '1') copyFileSync(shot, join(pkgRoot, 'demo', 'screenshot-long.png'));
  await send.click();
  // two bubbles, two request bodies: cut at the last paragraph break that leaves the first
  // part at most 2,000 units (S3), the break dropped (S2)
  assert.equal(await p.locator('.bubble').count(), 5);
  const bodies = (await p.locator('#body').textContent()).split('\n\n').map((b) => JSON.parse(b));
  assert.equal(bodies.length, 2);
  assert.ok(bodies.every((b) => b.chat_id === 1 && b.text.length <= 2000));
  assert.equal(`${bodies[0].text}\n\n${bodies[1].text}`, draft.text);
  assert.match(bodies[1].text, /^Pack light/);
  assert.deepEqual(bodies[1].text_styles, [{ start: 12, len: 12, st: ['i'] }]); // _one bag each_
  assert.equal(await p.locator('.bubble.me').last().locator('i').textContent(), 'one bag each');
  assert.deepEqual(errors, []);
  await p.close();
});

test('paste reads what the source showed: whitespace collapsed, default look dropped (issue 23)', {
  skip,
}, async () => {
  const c = await open();
  await c.ed.click();
  // a web page's source layout is not what its reader saw
  await pasteInto(c, 'text/html', '<p>a    b\n   c</p>\n  <p>d\t e</p>');
  assert.deepEqual(await c.value(), { text: 'a b c\nd e', text_styles: [] });
  // preformatted text keeps its spaces
  await c.set({ text: '', text_styles: [] });
  await c.ed.click();
  await pasteInto(c, 'text/html', '<span style="white-space: pre-wrap">x  y</span> <pre>p  q</pre>');
  assert.deepEqual((await c.value()).text, 'x  y\np  q');
  // text copied out of a page or the composer carries the computed size and colour: dropped
  await c.set({ text: '', text_styles: [] });
  await c.ed.click();
  await pasteInto(
    c,
    'text/html',
    '<span style="font-size:15px;color:rgb(5, 10, 25)">plain</span> <b style="color:#050a19">bold</b>',
  );
  assert.deepEqual(await c.value(), { text: 'plain bold', text_styles: [{ start: 6, len: 4, st: ['b'] }] });
  await c.close();
});

test('typing over a selection keeps its formatting (issue 23)', { skip }, async () => {
  const c = await open();
  await c.set(await c.p.evaluate(() => window.engine.parseMarkdown('hello **world**')));
  await c.select(6, 11);
  await c.p.keyboard.type('there');
  assert.deepEqual(await c.value(), { text: 'hello there', text_styles: [{ start: 6, len: 5, st: ['b'] }] });
  // the whole message selected: the new text takes the first character's look
  await c.set(await c.p.evaluate(() => window.engine.parseMarkdown('{red}all{/red} of it')));
  await c.select(0, 10);
  await c.p.keyboard.type('new');
  assert.deepEqual(await c.value(), { text: 'new', text_styles: [{ start: 0, len: 3, st: ['c_db342e'] }] });
  await c.close();
});

test('Send is disabled, not only marked, when the message is blank or over (issue 23)', { skip }, async () => {
  const c = await open();
  const send = c.button('Send');
  assert.equal(await send.isDisabled(), true);
  await c.ed.click();
  await c.p.keyboard.type('   ');
  assert.equal(await send.isDisabled(), true);
  await c.p.keyboard.press('Control+Enter');
  assert.equal(await c.p.evaluate(() => document.querySelector('chatmark-composer').send()), false);
  assert.deepEqual(await c.global('sent'), []);
  await c.p.keyboard.type('x');
  assert.equal(await send.isDisabled(), false);
  await send.click();
  assert.equal((await c.global('sent')).length, 1);
  assert.equal(await send.isDisabled(), true); // cleared after sending
  await c.close();
});

test('toolbar keys: Home and End, shortcuts from a button; the element label names the box (issue 23)', {
  skip,
}, async () => {
  const c = await open('aria-label="Reply to Ana"');
  assert.equal(await c.ed.getAttribute('aria-label'), 'Reply to Ana');
  assert.equal(
    await c.p.locator('chatmark-composer textarea').getAttribute('aria-label'),
    'Reply to Ana, markdown source',
  );
  await c.ed.click();
  await c.p.keyboard.type('word');
  await c.select(0, 4);
  await c.button('Bold').focus();
  await c.p.keyboard.press('End');
  assert.equal(
    await c.p.evaluate(() => document.querySelector('chatmark-composer').shadowRoot.activeElement.ariaLabel),
    'M↓ Markdown source',
  );
  await c.p.keyboard.press('Home');
  assert.equal(
    await c.p.evaluate(() => document.querySelector('chatmark-composer').shadowRoot.activeElement.ariaLabel),
    'Bold',
  );
  // Ctrl+I with a toolbar button focused formats the editor's selection
  await c.p.keyboard.press('Control+i');
  assert.deepEqual((await c.value()).text_styles, [{ start: 0, len: 4, st: ['i'] }]);
  await c.close();
});

test('a selection set inside a surrogate pair moves outward, so typing never splits it (issue 23)', {
  skip,
}, async () => {
  const c = await open();
  await c.set({ text: 'a😀b', text_styles: [] });
  await c.select(2, 2); // between the two halves of the emoji
  await c.p.keyboard.type('x');
  assert.equal((await c.value()).text, 'ax😀b');
  await c.select(2, 3); // from inside the pair to after it
  await c.p.keyboard.type('y');
  assert.equal((await c.value()).text, 'axyb');
  await c.close();
});

test('a pending format applies to IME input, and Bold stays pressed while composing (issue 23)', { skip }, async () => {
  const c = await open();
  const cdp = await browser.context.newCDPSession(c.p);
  await c.ed.click();
  await c.p.keyboard.type('a ');
  await c.p.keyboard.press('Control+b');
  await cdp.send('Input.imeSetComposition', { text: 'か', selectionStart: 1, selectionEnd: 1 });
  assert.equal(await c.pressed('Bold'), 'true');
  await cdp.send('Input.insertText', { text: 'か' }); // commits the composition
  assert.deepEqual(await c.value(), { text: 'a か', text_styles: [{ start: 2, len: 1, st: ['b'] }] });
  await c.close();
});

test('Tab and Shift+Tab indent and outdent list items; elsewhere Tab leaves the editor (issue 23)', {
  skip,
}, async () => {
  const c = await open();
  await c.set(await c.p.evaluate(() => window.engine.parseMarkdown('- one\n- two')));
  await c.ed.click();
  await c.select(6, 6); // in "two"
  await c.p.keyboard.press('Tab');
  assert.deepEqual((await c.value()).text_styles, [
    { start: 0, len: 3, st: ['lst_1'] },
    { start: 4, len: 3, st: ['lst_1', 'ind_1'] },
  ]);
  assert.equal(
    await c.p.evaluate(() => document.querySelector('chatmark-composer').shadowRoot.activeElement.className),
    'ed',
  );
  await c.p.keyboard.press('Shift+Tab');
  assert.deepEqual((await c.value()).text_styles, [
    { start: 0, len: 3, st: ['lst_1'] },
    { start: 4, len: 3, st: ['lst_1'] },
  ]);
  // not in a list: Tab moves the focus on, as in any text box
  await c.set({ text: 'plain', text_styles: [] });
  await c.ed.click();
  await c.p.keyboard.press('Tab');
  assert.notEqual(
    await c.p.evaluate(() => document.querySelector('chatmark-composer').shadowRoot.activeElement?.className),
    'ed',
  );
  assert.equal((await c.value()).text, 'plain');
  await c.close();
});

test('axe-core finds no violations: light, dark, a partial theme, markdown mode (issues 23, 50)', {
  skip,
}, async () => {
  const axe = readFileSync(join(pkgRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  for (const [name, attrs, colorScheme] of [
    ['light', '', 'light'],
    ['dark (the page and the OS)', '', 'dark'],
    ['theme="dark" on a light page', 'theme="dark"', 'light'],
    ['partial theme: --cm-bg only', 'style="--cm-bg:#1e1e2e"', 'light'],
    ['markdown mode', 'mode="markdown"', 'light'],
  ]) {
    const c = await open(`placeholder="Message" ${attrs}`);
    await c.p.emulateMedia({ colorScheme });
    await c.p.evaluate((scheme) => (document.documentElement.style.colorScheme = scheme), colorScheme);
    // the palette is the message's own (spec 1.1): red on the dark surface is 3.75:1, shown as
    // sent, so the runs on a dark surface check the composer's own colours with uncoloured content
    const md = name === 'light' ? '**bold** {red}red{/red}\n- item' : '**bold** text\n- item';
    await c.set(await c.p.evaluate((md) => window.engine.parseMarkdown(md), md));
    if (name !== 'markdown mode') {
      await c.ed.click();
      await c.select(0, 4); // Bold pressed
    }
    await c.p.addScriptTag({ content: axe });
    const violations = await c.p.evaluate(async () => {
      const r = await window.axe.run(document.querySelector('chatmark-composer'));
      return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(violations, [], name);
    await c.close();
  }
  const c = await open();
  await c.p.setViewportSize({ width: 360, height: 640 });
  const bar = c.p.locator('chatmark-composer [role=toolbar]');
  const button = await c.button('Bold').boundingBox();
  assert.ok((await bar.boundingBox()).height < 2 * button.height, 'the toolbar stays one row (it scrolls)');
  await c.close();
});

test('the markdown source grows with its text instead of cutting it at three lines (issue 23)', { skip }, async () => {
  const c = await open('mode="markdown"');
  await c.set({ text: Array.from({ length: 8 }, (_, k) => `line ${k}`).join('\n'), text_styles: [] });
  const ta = c.p.locator('chatmark-composer textarea');
  const [scroll, client] = await ta.evaluate((t) => [t.scrollHeight, t.clientHeight]);
  assert.ok(scroll <= client + 1, `${scroll} px of text in a ${client} px box`);
  await c.close();
});

test('enter-sends: Enter sends, Shift+Enter starts a line, in both modes (issue 23)', { skip }, async () => {
  const c = await open('enter-sends');
  await c.ed.click();
  await c.p.keyboard.type('first');
  await c.p.keyboard.press('Shift+Enter');
  await c.p.keyboard.type('line');
  assert.deepEqual(await c.global('sent'), []);
  await c.p.keyboard.press('Enter');
  assert.deepEqual(await c.global('sent'), [{ text: 'first\nline', text_styles: [] }]);
  assert.equal((await c.value()).text, '');
  // the markdown source too
  await c.p.evaluate(() => {
    document.querySelector('chatmark-composer').mode = 'markdown';
  });
  await c.p.locator('chatmark-composer textarea').click();
  await c.p.keyboard.type('**md**');
  await c.p.keyboard.press('Shift+Enter');
  await c.p.keyboard.type('x');
  await c.p.keyboard.press('Enter');
  assert.deepEqual((await c.global('sent'))[1], {
    text: 'md\nx',
    text_styles: [{ start: 0, len: 2, st: ['b'] }],
  });
  // without the attribute Enter is a new line (the property reflects it)
  await c.p.evaluate(() => {
    const el = document.querySelector('chatmark-composer');
    el.enterSends = false;
    el.mode = 'wysiwyg';
  });
  await c.ed.click();
  await c.p.keyboard.type('a');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.type('b');
  assert.equal((await c.value()).text, 'a\nb');
  assert.equal((await c.global('sent')).length, 2);
  await c.close();
});

test('markdown typed in the editor becomes its format; one undo brings it back (issue 23)', {
  skip,
}, async () => {
  const c = await open();
  const typed = async (keys) => {
    await c.set({ text: '', text_styles: [] });
    await c.ed.click();
    await c.p.keyboard.type(keys);
    return c.value();
  };
  const run = (start, len, ...st) => ({ start, len, st });
  assert.deepEqual(await typed('**bold** then'), { text: 'bold then', text_styles: [run(0, 4, 'b')] });
  assert.deepEqual(await typed('an *it* and _it_ '), {
    text: 'an it and it ',
    text_styles: [run(3, 2, 'i'), run(10, 2, 'i')],
  });
  assert.deepEqual(await typed('~~gone~~'), { text: 'gone', text_styles: [run(0, 4, 's')] });
  assert.deepEqual(await typed('{red}hot{/red}!'), { text: 'hot!', text_styles: [run(0, 3, 'c_db342e')] });
  // a line's prefix: list items, numbered items, a quote level
  assert.deepEqual(await typed('- item'), { text: 'item', text_styles: [run(0, 4, 'lst_1')] });
  assert.deepEqual(await typed('1. first'), { text: 'first', text_styles: [run(0, 5, 'lst_2')] });
  assert.deepEqual(await typed('> said'), { text: 'said', text_styles: [run(0, 4, 'ind_1')] });
  // what the dialect would not format stays as typed: intraword _, a lone *, 2024.
  for (const literal of ['snake_case_name', 'a * b * c', '2024. Great', '*x *', '** x**']) {
    assert.deepEqual(await typed(literal), { text: literal, text_styles: [] }, literal);
  }
  // one undo brings the markup back as typed
  await typed('**b**');
  await c.p.keyboard.press('Control+z');
  assert.deepEqual(await c.value(), { text: '**b**', text_styles: [] });
  await assertShowsValue(c);
  await c.close();
});

test('undo history is capped: the oldest steps go (issue 23)', { skip }, async () => {
  const c = await open();
  await c.ed.click();
  await c.p.keyboard.type('w '.repeat(150));
  for (let k = 0; k < 320; k++) await c.p.keyboard.press('Control+z');
  // 300 steps were typed (a word and a space each); only the last 100 are kept
  const left = (await c.value()).text;
  assert.ok(left.length >= 150 && left.startsWith('w w '), JSON.stringify(left));
  await c.close();
});

test('markdown mode keeps what markdown cannot write on text an edit left alone (issue 23)', {
  skip,
}, async () => {
  const c = await open();
  const small = { text: 'small and normal', text_styles: [{ start: 0, len: 5, st: ['f_13'] }] };
  await c.set(small);
  await c.p.evaluate(() => {
    document.querySelector('chatmark-composer').mode = 'markdown';
  });
  const source = c.p.locator('chatmark-composer textarea');
  await source.click();
  await c.p.keyboard.press('Control+End');
  await c.p.keyboard.type(' **text**');
  assert.deepEqual(await c.value(), {
    text: 'small and normal text',
    text_styles: [
      { start: 0, len: 5, st: ['f_13'] },
      { start: 17, len: 4, st: ['b'] },
    ],
  });
  assert.match(await c.p.locator('chatmark-composer .nt').textContent(), /f_13/);
  // spaces that begin lines (markdown reads them as indentation) stay where the edit left them
  await c.p.evaluate(() => {
    document.querySelector('chatmark-composer').mode = 'wysiwyg';
  });
  await c.set({ text: '  two spaces\nplain\n   three', text_styles: [] });
  await c.p.evaluate(() => {
    document.querySelector('chatmark-composer').mode = 'markdown';
  });
  await source.click();
  await c.p.keyboard.press('Control+Home');
  await c.p.keyboard.press('ArrowDown');
  await c.p.keyboard.press('End');
  await c.p.keyboard.type(' text');
  assert.deepEqual(await c.value(), { text: '  two spaces\nplain text\n   three', text_styles: [] });
  assert.match(await c.p.locator('chatmark-composer .nt').textContent(), /leading spaces/);
  await c.set(small);
  await c.p.keyboard.press('Control+End');
  // text the edit replaced takes what the markdown says
  await c.p.keyboard.press('Control+Home');
  await c.p.keyboard.press('Shift+ArrowRight');
  await c.p.keyboard.type('S');
  assert.deepEqual((await c.value()).text_styles[0], { start: 1, len: 4, st: ['f_13'] });
  await c.close();
});

test('paste: Word list paragraphs become items, table cells stay apart (issue 23)', { skip }, async () => {
  const c = await open();
  await c.ed.click();
  const word =
    '<p class=MsoListParagraphCxSpFirst style="text-indent:-18.0pt;mso-list:l0 level1 lfo1">' +
    '<span style="font-family:Symbol"><span style="mso-list:Ignore">·<span style="font:7.0pt Times">&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span>Milk</p>\n' +
    '<p class=MsoListParagraphCxSpMiddle style="margin-left:72.0pt;mso-list:l0 level2 lfo1">' +
    '<span style="font-family:Courier"><span style="mso-list:Ignore">o<span style="font:7.0pt Times">&nbsp;&nbsp; </span></span></span>Oat</p>\n' +
    '<p class=MsoListParagraphCxSpLast style="mso-list:l1 level1 lfo2">' +
    '<span><span style="mso-list:Ignore">1.<span style="font:7.0pt Times">&nbsp;&nbsp; </span></span></span>Pay</p>';
  await pasteInto(c, 'text/html', word);
  assert.deepEqual(await c.value(), {
    text: 'Milk\nOat\nPay',
    text_styles: [
      { start: 0, len: 4, st: ['lst_1'] },
      { start: 5, len: 3, st: ['lst_1', 'ind_1'] },
      { start: 9, len: 3, st: ['lst_2'] },
    ],
  });
  await c.set({ text: '', text_styles: [] });
  await c.ed.click();
  await pasteInto(c, 'text/html', '<table><tr><th>Name</th><th>Qty</th></tr><tr><td>Tea</td><td>2</td></tr></table>');
  assert.deepEqual(await c.value(), { text: 'Name\tQty\nTea\t2', text_styles: [] });
  await c.close();
});

test('values hold no CR or NUL, and read canonical before connection (issue 23)', { skip }, async () => {
  const c = await open();
  await c.set({ text: 'a\r\nb\rc\u0000d', text_styles: [{ start: 0, len: 8, st: ['b'] }] });
  assert.deepEqual(await c.value(), {
    text: 'a\nb\nc\ufffdd',
    text_styles: [{ start: 0, len: 7, st: ['b'] }],
  });
  const early = await c.p.evaluate(async () => {
    await window.engine.default();
    const el = document.createElement('chatmark-composer');
    el.value = { text: 'ab', text_styles: [{ start: 0, len: 9, st: ['b', 'nope'] }] };
    return el.value;
  });
  assert.deepEqual(early, { text: 'ab', text_styles: [{ start: 0, len: 2, st: ['b'] }] });
  await c.close();
});

/** 1,539 units in 300 runs, one paragraph: the long message. */
const LONG = Array.from({ length: 300 }, (_, k) => (k % 2 ? `*w${k}x*` : `{red}r${k}{/red}`)).join(' ');

test('a keystroke changes one text node, however long the message (issue 23)', { skip }, async () => {
  // 2,000 units in 300 runs, as the issue measured: typing and deleting inside a run touch one
  // text node of the editor (no element added or removed), and what shows stays toHtml(value);
  // the caret moves on with the typed text
  const c = await open();
  await c.set(await c.p.evaluate((md) => window.engine.parseMarkdown(md), LONG));
  const before = await c.value();
  assert.ok(before.text.length > 1500 && before.text_styles.length >= 299, `${before.text.length}`);
  const at = before.text.indexOf('w151') + 2;
  await c.select(at, at);
  await c.p.evaluate(() => {
    window.changes = { nodes: 0, texts: 0 };
    const texts = new Set();
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') texts.add(r.target);
        else window.changes.nodes += r.addedNodes.length + r.removedNodes.length;
      }
      window.changes.texts = texts.size;
    }).observe(document.querySelector('chatmark-composer').shadowRoot.querySelector('.ed'), {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  await c.p.keyboard.type('abc');
  await c.p.keyboard.press('Backspace');
  await c.p.keyboard.press('Delete');
  await c.p.keyboard.type('d');
  await c.p.evaluate(() => new Promise(requestAnimationFrame));
  const changes = await c.global('changes');
  assert.deepEqual(changes, { nodes: 0, texts: 1 });
  const after = await c.value();
  assert.equal(after.text, `${before.text.slice(0, at)}abd${before.text.slice(at + 1)}`);
  assert.deepEqual(after.text_styles.length, before.text_styles.length);
  await assertShowsValue(c);
  // a character in another look than its neighbour's still renders the whole message
  await c.p.keyboard.press('Control+b');
  await c.p.keyboard.type('B');
  await c.p.evaluate(() => new Promise(requestAnimationFrame));
  assert.ok((await c.global('changes')).nodes > 0);
  await assertShowsValue(c);
  await c.close();
});

test('keydown to input at 2 units and at 1,539 in 300 runs (issue 23; printed, not asserted)', {
  skip,
}, async () => {
  // in the middle of a short and of the long message: per round, the median of 41 keystrokes
  // after 5 of warm-up, a frame after each (as when a person types); the two cases take turns,
  // 3 rounds. Printed (benches/RESULTS.md's figure is scripts/composer-bench.mjs's); wall-clock time is never asserted. Its own browser: the
  // screenshot test installs Playwright's clock, whose performance.now() counts whole ms
  const own = await launchChromium();
  const c = await open('', own.context);
  const long = await c.p.evaluate((md) => window.engine.parseMarkdown(md), LONG);
  await c.p.evaluate(() => {
    const el = document.querySelector('chatmark-composer');
    window.keyTimes = [];
    let t0 = 0;
    document.addEventListener('keydown', () => (t0 = performance.now()), true);
    el.addEventListener('input', () => window.keyTimes.push(performance.now() - t0));
  });
  const frame = () => c.p.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
  const median = async (value) => {
    await c.set(value);
    await c.select(value.text.length >> 1, value.text.length >> 1);
    await frame();
    await c.p.evaluate(() => (window.keyTimes = []));
    for (let k = 0; k < 46; k++) {
      await c.p.keyboard.type('q');
      await frame();
    }
    const times = (await c.global('keyTimes')).slice(5).sort((x, y) => x - y);
    return times[times.length >> 1];
  };
  const rounds = [];
  for (let round = 0; round < 3; round++) {
    const cases = [{ text: 'hi', text_styles: [] }, long];
    if (round % 2) cases.reverse();
    const [a, b] = [await median(cases[0]), await median(cases[1])];
    rounds.push(round % 2 ? [b, a] : [a, b]);
  }
  const isolated = await c.p.evaluate(() => crossOriginIsolated);
  const shown = rounds.map(([a, b]) => `${a.toFixed(3)} ms at 2 units, ${b.toFixed(3)} ms (${(b / a).toFixed(2)}x)`);
  console.log(
    `keydown to input, median of 41 per round (${isolated ? '5' : '100'} µs timer): ${shown.join('; ')} ` +
      `at ${long.text.length} units and ${long.text_styles.length} runs`,
  );
  await c.close();
  await own.close();
});

test('a new list item shows its bullet or number before it is typed into (issue 23)', { skip }, async () => {
  const c = await open();
  const items = () => c.p.locator('chatmark-composer .ed li').count();
  await c.ed.click();
  await c.button('Bulleted list').click();
  await c.p.keyboard.type('milk');
  await c.p.keyboard.press('Enter');
  // the value has no item yet (an empty line carries no codes, P4); the editor shows one
  assert.deepEqual(await c.value(), { text: 'milk\n', text_styles: [{ start: 0, len: 4, st: ['lst_1'] }] });
  assert.equal(await items(), 2);
  await c.p.keyboard.type('eggs');
  assert.deepEqual((await c.value()).text_styles, [
    { start: 0, len: 4, st: ['lst_1'] },
    { start: 5, len: 4, st: ['lst_1'] },
  ]);
  await assertShowsValue(c);
  // mid-list, the new item is numbered in place and the ones after it move on
  await c.set(await c.p.evaluate(() => window.engine.parseMarkdown('1. a\n2. b\n3. c')));
  await c.select(1, 1);
  await c.p.keyboard.press('Enter');
  assert.equal(await c.p.locator('chatmark-composer .ed ol').count(), 1);
  assert.equal(await c.p.locator('chatmark-composer .ed ol > li').count(), 4);
  assert.equal(await c.p.locator('chatmark-composer .ed ol > li').nth(2).textContent(), 'b');
  await c.p.keyboard.type('x');
  assert.deepEqual(await c.value(), await c.p.evaluate(() => window.engine.parseMarkdown('1. a\n2. x\n3. b\n4. c')));
  // a new item left empty is no item: the caret moving away takes its bullet off
  await c.p.keyboard.press('Enter');
  assert.equal(await items(), 5);
  await c.p.keyboard.press('ArrowDown');
  await c.p.evaluate(() => new Promise(requestAnimationFrame));
  assert.equal(await items(), 4);
  await assertShowsValue(c);
  await c.close();
});

test('Shift+Enter in a list item goes on inside it, as markdown indents it (issue 23)', { skip }, async () => {
  const c = await open();
  await c.ed.click();
  await c.button('Bulleted list').click();
  await c.p.keyboard.type('milk');
  await c.p.keyboard.press('Shift+Enter');
  await c.p.keyboard.type('oat or soy');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.type('more');
  // the continuation line is indented to the item's text (`- milk` then `  oat or soy`), and
  // Enter there makes the next item (issue 50)
  assert.deepEqual(
    await c.value(),
    await c.p.evaluate(() => window.engine.parseMarkdown('- milk\n  oat or soy\n- more')),
  );
  // mid-item, the rest of the item moves to the continuation line
  await c.set(await c.p.evaluate(() => window.engine.parseMarkdown('- ab\n  - cd')));
  await c.select(1, 1);
  await c.p.keyboard.press('Shift+Enter');
  assert.deepEqual(await c.value(), await c.p.evaluate(() => window.engine.parseMarkdown('- a\n  b\n  - cd')));
  await c.select(5, 5);
  await c.p.keyboard.press('Shift+Enter');
  assert.deepEqual(await c.value(), await c.p.evaluate(() => window.engine.parseMarkdown('- a\n  b\n  - c\n    d')));
  await assertShowsValue(c);
  await c.close();
});

// Issue 50: the defects found trying the composer as a product team would before adopting it,
// one test each (every one failed on the code before its fix), then the form control and the
// integration surface.

/** The composer's parsed markdown, in the page. */
const md = (c, source) => c.p.evaluate((s) => window.engine.parseMarkdown(s), source);
const EMPTY = { text: '', text_styles: [] };

/** Commits `word` as an IME does: composed a character at a time, then inserted. */
async function compose(cdp, word) {
  for (let k = 1; k <= word.length; k++) {
    await cdp.send('Input.imeSetComposition', { text: word.slice(0, k), selectionStart: k, selectionEnd: k });
  }
  await cdp.send('Input.insertText', { text: word });
}

test('an IME word in a new list item, quote or indented line stays where it was typed (issue 50, 1)', {
  skip,
}, async () => {
  const c = await open();
  const cdp = await browser.context.newCDPSession(c.p);
  const k = c.p.keyboard;
  // a prefix typed at a line start makes an item (or quote) not typed into yet
  for (const prefix of ['- ', '1. ', '> ']) {
    await c.set(EMPTY);
    await c.ed.click();
    await k.type(prefix);
    await compose(cdp, 'việt');
    await k.type('X');
    assert.deepEqual(await c.value(), await md(c, `${prefix}việtX`), prefix);
    await assertShowsValue(c);
  }
  // the item Enter makes, and the line Shift+Enter makes inside an item
  for (const [key, want] of [
    ['Enter', '- a\n- việtX'],
    ['Shift+Enter', '- a\n  việtX'],
  ]) {
    await c.set(EMPTY);
    await c.ed.click();
    await k.type('- a');
    await k.press(key);
    await compose(cdp, 'việt');
    await k.type('X');
    assert.deepEqual(await c.value(), await md(c, want), key);
  }
  // Gboard composes every word and commits the space after it
  await c.set(EMPTY);
  await c.ed.click();
  await k.type('- ');
  for (const word of ['Hey', 'yo', 'there']) {
    await compose(cdp, word);
    await cdp.send('Input.insertText', { text: ' ' });
  }
  assert.deepEqual(await c.value(), await md(c, '- Hey yo there '));
  await c.close();
});

/** Whether the caret is inside the editor's visible box (it scrolls at 16em). */
function caretInView(c) {
  return c.p.evaluate(() => {
    const el = document.querySelector('chatmark-composer');
    const ed = el.shadowRoot.querySelector('.ed');
    const at = document.getSelection().getComposedRanges({ shadowRoots: [el.shadowRoot] })[0];
    const range = document.createRange();
    range.setStart(at.endContainer, at.endOffset);
    let rect = range.getBoundingClientRect();
    if (!rect.height) {
      const node = at.endContainer.childNodes[at.endOffset] || at.endContainer;
      rect = (node.nodeType === 1 ? node : node.parentElement).getBoundingClientRect();
    }
    const box = ed.getBoundingClientRect();
    return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1 && ed.scrollHeight > ed.clientHeight;
  });
}
const frame = (c) => c.p.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));

test('the caret stays in view: Enter, typing and setSelectionRange scroll to it (issue 50, 2)', { skip }, async () => {
  const c = await open();
  const text = Array.from({ length: 20 }, (_, k) => `line ${k}`).join('\n');
  await c.set({ text, text_styles: [] });
  await c.select(0);
  await frame(c);
  assert.ok(await caretInView(c), 'at the start');
  await c.select(text.length);
  await frame(c);
  assert.ok(await caretInView(c), 'setSelectionRange to the end');
  await c.select(text.indexOf('line 8'));
  for (let n = 0; n < 12; n++) await c.p.keyboard.press('Enter');
  await frame(c);
  assert.ok(await caretInView(c), 'after Enter in the middle');
  await c.p.keyboard.type('typed');
  await frame(c);
  assert.ok(await caretInView(c), 'typing');
  await c.close();
});

test('no keyboard trap: Esc then Tab, Shift+Tab at the top level and Tab at the deepest leave a list (issue 50, 3)', {
  skip,
}, async () => {
  const c = await open();
  const k = c.p.keyboard;
  const inEditor = () =>
    c.p.evaluate(() => {
      const root = document.querySelector('chatmark-composer').shadowRoot;
      return root.activeElement === root.querySelector('.ed');
    });
  await c.set(await md(c, '- one\n- two'));
  await c.ed.click();
  await c.select(6);
  await k.press('Escape');
  await k.press('Tab');
  assert.equal(await inEditor(), false, 'Esc then Tab');
  assert.deepEqual(await c.value(), await md(c, '- one\n- two'));
  await c.select(6);
  await k.press('Shift+Tab'); // a top-level item has no level to go out of: back to the toolbar
  assert.equal(await inEditor(), false, 'Shift+Tab');
  await c.select(6);
  for (let n = 0; n < 5; n++) await k.press('Tab');
  assert.equal(await inEditor(), true);
  assert.deepEqual((await c.value()).text_styles[1].st, ['lst_1', 'ind_5']);
  await k.press('Tab'); // no deeper level: Tab moves on, as in any text box
  assert.equal(await inEditor(), false, 'Tab at level 5');
  // the way out is part of the text box's description
  const description = await c.ed.evaluate((ed) =>
    ed
      .getAttribute('aria-describedby')
      .split(' ')
      .map((id) => ed.getRootNode().getElementById(id).textContent)
      .join(' '),
  );
  assert.match(description, /Esc/);
  await c.close();
});

/** A page with `html` in its body and the composer module loaded; answers the page. */
async function page(html) {
  const p = await browser.context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e));
  await p.goto(`${server.origin}/test/page.html`);
  await p.evaluate(async (html) => {
    document.body.innerHTML = html;
    await import('/js/composer.min.js');
    window.engine = await import('/js/browser.js');
    await Promise.all([...document.querySelectorAll('chatmark-composer')].map((c) => c.ready));
  }, html);
  p.errors = errors;
  return p;
}

test('a form control: FormData, validity with required and maxlength, reset, disabled, readonly (issue 50, 4)', {
  skip,
}, async () => {
  const p = await page(
    '<form><fieldset><chatmark-composer name="text" required maxlength="10"></chatmark-composer></fieldset></form>',
  );
  const state = () =>
    p.evaluate(() => {
      const form = document.querySelector('form');
      const el = document.querySelector('chatmark-composer');
      const data = new FormData(form);
      return {
        text: data.get('text'),
        styles: data.get('text_styles'),
        valid: form.checkValidity(),
        missing: el.validity.valueMissing,
        tooLong: el.validity.tooLong,
        message: el.validationMessage,
        editable: el.shadowRoot.querySelector('.ed').contentEditable,
        send: el.shadowRoot.querySelector('.sd').disabled,
        counter: el.shadowRoot.querySelector('.ct').textContent,
      };
    });
  let s = await state();
  assert.deepEqual([s.text, s.styles, s.valid, s.missing, s.tooLong], ['', '[]', false, true, false]);
  assert.ok(s.message);
  assert.equal(s.counter, '10'); // the standard maxlength attribute
  await p.locator('chatmark-composer [role=textbox]').click();
  await p.keyboard.press('Control+b');
  await p.keyboard.type('hi');
  s = await state();
  assert.deepEqual([s.text, JSON.parse(s.styles), s.valid], ['hi', [{ start: 0, len: 2, st: ['b'] }], true]);
  await p.keyboard.type(' and more');
  s = await state();
  assert.deepEqual([s.valid, s.tooLong], [false, true]);
  // reset brings back the default value (empty unless set)
  await p.evaluate(() => document.querySelector('form').reset());
  s = await state();
  assert.deepEqual([s.text, s.missing], ['', true]);
  // disabled (its own attribute, or a disabled fieldset): not editable, not sent, not submitted
  for (const disable of ['its own attribute', 'a disabled fieldset']) {
    await p.evaluate((how) => {
      const el = document.querySelector('chatmark-composer');
      el.value = { text: 'kept', text_styles: [] };
      if (how === 'a disabled fieldset') document.querySelector('fieldset').disabled = true;
      else el.disabled = true;
    }, disable);
    s = await state();
    assert.deepEqual([s.text, s.editable, s.send], [null, 'false', true], disable);
    assert.equal(await p.evaluate(() => document.querySelector('chatmark-composer').send()), false);
    await p.evaluate(() => {
      document.querySelector('chatmark-composer').disabled = false;
      document.querySelector('fieldset').disabled = false;
    });
    s = await state();
    assert.deepEqual([s.text, s.editable], ['kept', 'true']);
  }
  // readonly: focusable and selectable, not editable, not validated
  await p.evaluate(() => {
    const el = document.querySelector('chatmark-composer');
    el.readOnly = true;
    el.value = { text: '', text_styles: [] };
  });
  s = await state();
  assert.deepEqual([s.editable, s.valid], ['false', true]);
  await p.locator('chatmark-composer [role=textbox]').focus();
  await p.keyboard.type('no');
  await p.keyboard.press('Control+b');
  assert.equal((await state()).text, '');
  assert.equal(await p.locator('chatmark-composer [role=textbox]').getAttribute('aria-readonly'), 'true');
  assert.deepEqual(p.errors, []);
  await p.close();
});

test('integration: host beforeinput cancels, input says what, selectionStart/End, insertText keeps undo (issue 50, 5)', {
  skip,
}, async () => {
  const c = await open();
  const k = c.p.keyboard;
  await c.p.evaluate(() => {
    const el = document.querySelector('chatmark-composer');
    window.inputTypes = [];
    el.addEventListener('beforeinput', (e) => e.data === 'x' && e.preventDefault());
    el.addEventListener('input', (e) => window.inputTypes.push(`${e.inputType}:${e.data}`));
  });
  await c.ed.click();
  await k.type('axb');
  await k.press('Enter');
  assert.deepEqual(await c.value(), { text: 'ab\n', text_styles: [] });
  assert.deepEqual(await c.global('inputTypes'), ['insertText:a', 'insertText:b', 'insertParagraph:null']);
  // the selection in UTF-16 units, both ways
  await c.set({ text: 'Hi 😀 there', text_styles: [] });
  await c.select(3, 5);
  const sel = () =>
    c.p.evaluate(() => {
      const el = document.querySelector('chatmark-composer');
      return [el.selectionStart, el.selectionEnd];
    });
  assert.deepEqual(await sel(), [3, 5]);
  await c.p.evaluate(() => {
    document.querySelector('chatmark-composer').selectionStart = 6;
  });
  assert.deepEqual(await sel(), [6, 6]);
  // insertText at the selection, styled, one undo step; the caret after it
  await c.p.evaluate(() => document.querySelector('chatmark-composer').insertText('@Sam', ['b']));
  assert.deepEqual(await c.value(), {
    text: 'Hi 😀 @Samthere',
    text_styles: [{ start: 6, len: 4, st: ['b'] }],
  });
  assert.deepEqual(await sel(), [10, 10]);
  await c.ed.focus();
  await k.type(' ');
  await k.press('Control+z');
  await k.press('Control+z');
  assert.deepEqual(await c.value(), { text: 'Hi 😀 there', text_styles: [] });
  await k.press('Control+y');
  assert.equal((await c.value()).text, 'Hi 😀 @Samthere');
  await c.close();
});

test('typed markdown converts only where a person means it; autoformat="off" turns it off (issue 50, 6)', {
  skip,
}, async () => {
  const c = await open();
  const typed = async (keys) => {
    await c.set(EMPTY);
    await c.ed.click();
    await c.p.keyboard.type(keys);
    return c.value();
  };
  for (const literal of ['price 5*2=10 or 3*4', '__init__.py', 'a*b*c', 'x__y__ z']) {
    assert.deepEqual(await typed(literal), { text: literal, text_styles: [] }, literal);
  }
  // `_` waits for the space after it (it may be a name going on); `*` and `**` do not wait
  assert.deepEqual(await typed('_word_ on'), { text: 'word on', text_styles: [{ start: 0, len: 4, st: ['i'] }] });
  assert.deepEqual(await typed('**now**'), { text: 'now', text_styles: [{ start: 0, len: 3, st: ['b'] }] });
  await c.p.evaluate(() => document.querySelector('chatmark-composer').setAttribute('autoformat', 'off'));
  for (const literal of ['**b** x', '- item', '_i_ ']) {
    assert.deepEqual(await typed(literal), { text: literal, text_styles: [] }, literal);
  }
  await c.close();
});

test('lists: Enter after Shift+Enter makes the next item; `# ` is a heading; `> ` looks quoted (issue 50, 7)', {
  skip,
}, async () => {
  const c = await open();
  const k = c.p.keyboard;
  await c.ed.click();
  await k.type('- milk');
  await k.press('Shift+Enter');
  await k.type('oat');
  await k.press('Enter');
  await k.type('more');
  assert.deepEqual(await c.value(), await md(c, '- milk\n  oat\n- more'));
  await c.set(EMPTY);
  await k.type('# Plan');
  assert.deepEqual(await c.value(), await md(c, '# Plan'));
  await c.set(EMPTY);
  await k.type('> said');
  assert.deepEqual(await c.value(), await md(c, '> said'));
  const bar = await c.p
    .locator('chatmark-composer .ed blockquote')
    .evaluate((q) => parseFloat(getComputedStyle(q).borderInlineStartWidth));
  assert.ok(bar >= 2, `quote bar ${bar}px`);
  await c.close();
});

/** The WCAG contrast of two CSS colours (read through a canvas, whatever their syntax). */
function contrastIn(p, fg, bg) {
  return p.evaluate(
    ([fg, bg]) => {
      const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const lum = (css) => {
        ctx.fillStyle = '#000';
        ctx.fillStyle = css;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b] = [...ctx.getImageData(0, 0, 1, 1).data].map((v) => {
          const c = v / 255;
          return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    },
    [fg, bg],
  );
}

test("theme: the page's color-scheme, a theme attribute, a partial theme keeps text readable (issue 50, 8)", {
  skip,
}, async () => {
  const p = await page(
    '<chatmark-composer id="a"></chatmark-composer><chatmark-composer id="b" theme="dark"></chatmark-composer>' +
      '<chatmark-composer id="c" style="--cm-bg:#1e1e2e"></chatmark-composer>' +
      '<chatmark-composer id="d" theme="dark" style="--cm-bg:#fffdf5"></chatmark-composer>',
  );
  const look = (id) =>
    p.evaluate((id) => {
      const root = document.getElementById(id).shadowRoot;
      return [
        getComputedStyle(root.querySelector('.box')).backgroundColor,
        getComputedStyle(root.querySelector('.ed')).color,
      ];
    }, id);
  const dark = async (id) => {
    const [bg] = await look(id);
    return (await contrastIn(p, bg, '#000')) < 3;
  };
  // a white page in a dark OS: the page's scheme (light) wins
  await p.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await dark('a'), false, 'follows the page, not the OS');
  assert.equal(await dark('b'), true, 'theme="dark"');
  await p.evaluate(() => (document.documentElement.style.colorScheme = 'dark'));
  assert.equal(await dark('a'), true, 'a dark page');
  for (const id of ['a', 'b', 'c', 'd']) {
    const [bg, fg] = await look(id);
    assert.ok((await contrastIn(p, fg, bg)) >= 7, `${id}: ${fg} on ${bg}`);
  }
  await p.close();
});

test('over the limit: said in the status, the counter a live region, Ctrl+Enter answers (issue 50, 9)', {
  skip,
}, async () => {
  const c = await open('maxlength="20"');
  const status = () => c.p.locator('chatmark-composer [role=status]').textContent();
  await c.ed.click();
  await c.p.keyboard.type('x'.repeat(18));
  assert.equal(await status(), '');
  assert.equal(await c.p.locator('chatmark-composer #ct').getAttribute('aria-live'), 'polite'); // 2 left
  await c.p.keyboard.type('y'.repeat(5));
  assert.match(await status(), /3 characters? too long/);
  await c.p.keyboard.press('Control+Enter');
  assert.match(await status(), /Not sent/);
  assert.deepEqual(await c.global('sent'), []);
  for (let n = 0; n < 3; n++) await c.p.keyboard.press('Backspace');
  assert.equal(await status(), '');
  await c.close();
});

test('split-long: over the limit the status counts the messages, Send sends the parts in order (issues 48, 50; S1-S4)', {
  skip,
}, async () => {
  const c = await open('maxlength="20" name="text"');
  const status = () => c.p.locator('chatmark-composer [role=status]').textContent();
  const el = (f) => c.p.evaluate(f);
  const send = c.button('Send');
  await c.ed.click();
  await c.p.keyboard.type('Hello there. ');
  await c.p.keyboard.press('Control+b');
  await c.p.keyboard.type('bold words');
  await c.p.keyboard.press('Control+b');
  await c.p.keyboard.type(' and more'); // 32 units
  // without split-long: said with the count, refused, invalid
  assert.equal(await status(), '12 characters too long (would be 2 messages)');
  assert.equal(await send.isDisabled(), true);
  assert.equal(await el(() => document.querySelector('chatmark-composer').validity.tooLong), true);
  await c.p.keyboard.press('Control+Enter');
  assert.deepEqual(await c.global('sent'), []);
  // with it (the property reflects the attribute): Send enabled, the value valid
  await el(() => {
    document.querySelector('chatmark-composer').splitLong = true;
  });
  assert.equal(await c.p.locator('chatmark-composer[split-long]').count(), 1);
  assert.equal(await status(), '12 characters too long (sends as 2 messages)');
  assert.equal(await c.p.locator('chatmark-composer[over]').count(), 1); // the counter still says -12
  assert.equal(await send.isDisabled(), false);
  assert.equal(await c.ed.getAttribute('aria-invalid'), 'false');
  assert.deepEqual(
    await el(() => {
      const e = document.querySelector('chatmark-composer');
      return [e.validity.tooLong, e.checkValidity(), e.sendable];
    }),
    [false, true, true],
  );
  // S3: cut after the sentence end (a part of 12, at least half of 20), the space dropped (S2),
  // the bold run clipped and shifted (S4); the detail keeps the whole message beside its parts
  const whole = {
    text: 'Hello there. bold words and more',
    text_styles: [{ start: 13, len: 10, st: ['b'] }],
  };
  const parts = [
    { text: 'Hello there.', text_styles: [] },
    { text: 'bold words and more', text_styles: [{ start: 0, len: 10, st: ['b'] }] },
  ];
  await c.p.keyboard.press('Control+Enter');
  assert.deepEqual(await c.global('sent'), [{ ...whole, parts }]);
  assert.deepEqual(await c.value(), { text: '', text_styles: [] });
  assert.equal(await status(), '');
  // the button and Enter with enter-sends send the parts too
  await c.set(whole);
  await send.click();
  await c.set(whole);
  await el(() => document.querySelector('chatmark-composer').setAttribute('enter-sends', ''));
  await c.ed.click();
  await c.p.keyboard.press('Enter');
  assert.deepEqual((await c.global('sent')).slice(1), [
    { ...whole, parts },
    { ...whole, parts },
  ]);
  // a message that fits is one part, equal to it (S1), trailing whitespace left behind
  await c.set('fits  \n');
  await send.click();
  assert.deepEqual((await c.global('sent'))[3], {
    text: 'fits',
    text_styles: [],
    parts: [{ text: 'fits', text_styles: [] }],
  });
  // a limit split cannot keep (below 2, S1's invalid_limit) is refused as without it
  await el(() => document.querySelector('chatmark-composer').setAttribute('maxlength', '1'));
  await c.set('xyz');
  assert.equal(await status(), '2 characters too long');
  assert.equal(await send.isDisabled(), true);
  // taken off again: refused again
  await el(() => {
    const e = document.querySelector('chatmark-composer');
    e.maxLength = 20;
    e.removeAttribute('split-long');
    e.value = 'x'.repeat(30);
  });
  assert.equal(await c.p.evaluate(() => document.querySelector('chatmark-composer').splitLong), false);
  assert.equal(await send.isDisabled(), true);
  assert.equal(await status(), '10 characters too long (would be 2 messages)');
  assert.equal((await c.global('sent')).length, 4);
  await c.close();
});

test('without wasm-unsafe-eval the element says it cannot start, and fires error (issue 50, 10)', {
  skip,
}, async () => {
  const p = await browser.context.newPage();
  await p.route('**/test/csp.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers: { 'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'" },
      body: '<!doctype html><meta charset="utf-8"><chatmark-composer></chatmark-composer>',
    }),
  );
  await p.goto(`${server.origin}/test/csp.html`);
  const out = await p.evaluate(async () => {
    const el = document.querySelector('chatmark-composer');
    let error = null;
    el.addEventListener('error', (e) => (error = e.error?.name || 'no error'));
    await import('/js/composer.min.js');
    const ready = await el.ready.then(
      () => 'resolved',
      () => 'rejected',
    );
    await new Promise((done) => setTimeout(done, 50));
    const root = el.shadowRoot;
    return {
      ready,
      error,
      said: root.querySelector('[role=status]').textContent,
      shown: getComputedStyle(root.querySelector('.box')).visibility,
      send: root.querySelector('.sd').disabled,
      attr: el.hasAttribute('error'),
    };
  });
  assert.equal(out.ready, 'rejected');
  assert.equal(out.error, 'CompileError');
  assert.match(out.said, /could not start/);
  assert.deepEqual([out.shown, out.send, out.attr], ['visible', true, true]);
  await p.close();
});

test('at 360 px the toolbar shows that it scrolls (issue 50, 11)', { skip }, async () => {
  const c = await open();
  await c.p.setViewportSize({ width: 360, height: 640 });
  const bar = await c.p.locator('chatmark-composer [role=toolbar]').evaluate((b) => ({
    // (the test browser hides scrollbars, --hide-scrollbars: the style says whether one shows)
    scrollbar: getComputedStyle(b).scrollbarWidth,
    more: b.scrollWidth - b.clientWidth,
    image: getComputedStyle(b).backgroundImage,
  }));
  assert.ok(bar.more > 0, 'the tools overflow');
  assert.notEqual(bar.scrollbar, 'none', 'a scrollbar shows');
  assert.match(bar.image, /gradient/); // the edge that hides tools is shaded
  await c.close();
});

const frameOf = (p) => p.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));

test('inside another shadow root the toolbar follows the caret (issue 50, 12)', { skip }, async () => {
  const p = await browser.context.newPage();
  await p.goto(`${server.origin}/test/page.html`);
  await p.evaluate(async () => {
    await import('/js/composer.min.js');
    const host = document.createElement('div');
    host.attachShadow({ mode: 'open' }).innerHTML = '<chatmark-composer></chatmark-composer>';
    document.body.append(host);
    const c = host.shadowRoot.querySelector('chatmark-composer');
    await c.ready;
    c.value = { text: 'bold plain', text_styles: [{ start: 0, len: 4, st: ['b'] }] };
  });
  const bold = p.getByRole('button', { name: 'Bold', exact: true });
  await p.locator('chatmark-composer [role=textbox]').click();
  await p.keyboard.press('End');
  await frameOf(p);
  assert.equal(await bold.getAttribute('aria-pressed'), 'false');
  await p.keyboard.press('Home');
  await p.keyboard.press('ArrowRight');
  await frameOf(p);
  assert.equal(await bold.getAttribute('aria-pressed'), 'true');
  await p.close();
});

test('paste: a link keeps its URL as text, a Docs paste ends where its text ends (issue 50, 13)', {
  skip,
}, async () => {
  const c = await open();
  await c.ed.click();
  await pasteInto(
    c,
    'text/html',
    '<p>See <a href="https://example.com/a?b=1">the <b>docs</b></a>, <a href="https://x.org/">https://x.org/</a> ' +
      'or <a href="javascript:alert(1)">this</a></p>',
  );
  assert.deepEqual(await c.value(), {
    text: 'See the docs (https://example.com/a?b=1), https://x.org/ or this',
    text_styles: [{ start: 8, len: 4, st: ['b'] }],
  });
  await c.set(EMPTY);
  await c.ed.click();
  await pasteInto(
    c,
    'text/html',
    '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-7a1"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;">One</span></p><br><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;">Two</span></p><br></b>',
  );
  assert.equal((await c.value()).text.replace(/\n+/, '\n'), 'One\nTwo');
  await c.close();
});

test('paste: plain CommonMark is offered formatted, loaded only then; one undo takes it back (issue 50, 13)', {
  skip,
}, async () => {
  const c = await open();
  const offer = c.button('Paste as formatted');
  // what the page requests of chatmark/commonmark (routing also keeps the HTTP cache out)
  const requested = [];
  await c.p.route(/commonmark/, (route) => {
    requested.push(new URL(route.request().url()).pathname);
    return route.continue();
  });
  const focused = () =>
    c.p.evaluate(() => document.querySelector('chatmark-composer').shadowRoot.activeElement?.className);
  await c.ed.click();
  // text that is no markdown, and HTML (whatever its text): as before, no offer, nothing loaded
  await pasteInto(c, 'text/plain', 'price 5*2=10 or 3*4 ');
  await pasteInto(c, 'text/html', '<p>**not** <i>offered</i></p>');
  assert.deepEqual(await c.value(), {
    text: 'price 5*2=10 or 3*4 **not** offered',
    text_styles: [{ start: 28, len: 7, st: ['i'] }],
  });
  assert.equal(await offer.isHidden(), true);
  assert.deepEqual(requested, []);
  // CommonMark as a language model writes it goes in as text, with the offer
  const md = '# Plan\n\nSome **bold**, `code` and a [link](https://example.com).\n\n- one\n- two\n\n```\nx = 1\n```';
  await c.set('Notes: ');
  await c.ed.click();
  await c.p.keyboard.press('Control+End');
  await pasteInto(c, 'text/plain', md.replaceAll('\n', '\r\n'));
  const literal = { text: `Notes: ${md}`, text_styles: [] };
  assert.deepEqual(await c.value(), literal);
  assert.equal(await offer.isVisible(), true);
  assert.equal(await c.p.locator('chatmark-composer .ft').getAttribute('aria-live'), 'polite'); // read out
  await c.p.addScriptTag({ content: readFileSync(join(pkgRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8') });
  const violations = await c.p.evaluate(async () => {
    const r = await window.axe.run(document.querySelector('chatmark-composer'));
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], 'axe-core, the offer shown');
  // loaded as the offer shows, so that taking it answers at once
  const wasm = '/pkg/chatmark_commonmark_bg.wasm';
  for (let n = 0; n < 500 && !requested.includes(wasm); n++) await new Promise((ok) => setTimeout(ok, 20));
  assert.deepEqual([requested[0], requested.includes(wasm)], ['/js/commonmark-browser.js', true]);
  // what chatmark/commonmark imports (spec section 9), after the text before it
  const imported = await c.p.evaluate(async (md) => {
    const cm = await import('/js/commonmark-browser.js');
    await cm.default();
    return cm.fromCommonMark(md);
  }, md);
  assert.ok(!/[#*[]/.test(imported.text), imported.text); // code keeps its backticks (M2, M6)
  assert.ok(imported.text_styles.some((r) => r.st.includes('lst_1')));
  const formatted = {
    text: `Notes: ${imported.text}`,
    text_styles: imported.text_styles.map((r) => ({ ...r, start: r.start + 7 })),
  };
  // by the keyboard: Tab from the editor reaches the offer, Enter takes it
  await c.p.keyboard.press('Tab');
  assert.equal(await focused(), 'cv');
  await c.p.keyboard.press('Enter');
  await c.p.waitForFunction(() => !document.querySelector('chatmark-composer').value.text.includes('**'));
  assert.deepEqual(await c.value(), formatted);
  await assertShowsValue(c);
  assert.equal(await offer.isHidden(), true);
  assert.equal(await focused(), 'ed'); // back in the editor, the caret after what it formatted
  assert.deepEqual(
    await c.p.evaluate(() => document.querySelector('chatmark-composer').selectionStart),
    formatted.text.length,
  );
  // one undo: the text as pasted; another: before the paste
  await c.p.keyboard.press('Control+z');
  assert.deepEqual(await c.value(), literal);
  await c.p.keyboard.press('Control+z');
  assert.deepEqual(await c.value(), { text: 'Notes: ', text_styles: [] });
  // by the pointer, into a selection; the offer goes with the next change, and with autoformat="off"
  await c.select(0, 5);
  await pasteInto(c, 'text/plain', '**Plan**');
  await offer.click();
  await c.p.waitForFunction(() => !document.querySelector('chatmark-composer').value.text.includes('*'));
  assert.deepEqual(await c.value(), { text: 'Plan: ', text_styles: [{ start: 0, len: 4, st: ['b'] }] });
  await pasteInto(c, 'text/plain', ' ~~gone~~');
  assert.equal(await offer.isVisible(), true);
  await c.p.keyboard.type('!');
  assert.equal(await offer.isHidden(), true);
  await c.p.evaluate(() => document.querySelector('chatmark-composer').setAttribute('autoformat', 'off'));
  await pasteInto(c, 'text/plain', '- item');
  assert.equal(await offer.isHidden(), true);
  await c.close();
});

test('RTL: each line aligns to its own direction; toolbar faces read the same in dir=rtl (issue 50, 14)', {
  skip,
}, async () => {
  const c = await open();
  await c.set({ text: 'hello\nשלום עולם\nمرحبا', text_styles: [] });
  const edges = await c.ed.evaluate((ed) => {
    const box = ed.getBoundingClientRect();
    const right = box.right - parseFloat(getComputedStyle(ed).paddingRight);
    return [...ed.childNodes]
      .filter((n) => n.nodeType === 3)
      .map((n) => {
        const r = document.createRange();
        r.selectNodeContents(n);
        return Math.round(right - r.getBoundingClientRect().right);
      });
  });
  assert.equal(edges.length, 3);
  assert.ok(edges[0] > 50, 'the Latin line starts at the left');
  assert.ok(Math.abs(edges[1]) <= 2 && Math.abs(edges[2]) <= 2, `the Hebrew and Arabic lines at the right: ${edges}`);
  await c.p.evaluate(() => document.querySelector('chatmark-composer').setAttribute('dir', 'rtl'));
  const order = await c.button('A+ Big').evaluate((b) => {
    const r = document.createRange();
    r.selectNodeContents(b.firstChild);
    return b.querySelector('sup').getBoundingClientRect().left >= r.getBoundingClientRect().left + 4;
  });
  assert.equal(order, true, 'A+ keeps its + after the A');
  const indent = await c.button('Indent').evaluate((b) => getComputedStyle(b).transform);
  assert.match(indent, /^matrix\(-1/, 'the indent arrow points to where the line moves');
  await c.close();
});

test('small: trailing whitespace not sent, value = "" and strings, caret outside a ZWJ emoji, preview has a role (issue 50, 15)', {
  skip,
}, async () => {
  const c = await open();
  await c.ed.click();
  await c.p.keyboard.type('hi  ');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.press('Enter');
  await c.p.keyboard.press('Control+Enter');
  assert.deepEqual(await c.global('sent'), [{ text: 'hi', text_styles: [] }]);
  const set = (v) =>
    c.p.evaluate((v) => {
      const el = document.querySelector('chatmark-composer');
      el.value = v;
      return el.value;
    }, v);
  assert.deepEqual(await set('plain *text*'), { text: 'plain *text*', text_styles: [] });
  assert.deepEqual(await set(''), EMPTY);
  const family = '👩‍👩‍👧';
  await c.set({ text: `${family}x`, text_styles: [] });
  await c.select(3);
  await c.p.keyboard.type('y');
  assert.equal((await c.value()).text, `y${family}x`);
  await c.select(2, 4); // inside the sequence at both ends: all of it
  await c.p.keyboard.type('z');
  assert.equal((await c.value()).text, 'yzx');
  await c.p.evaluate(() => {
    document.querySelector('chatmark-composer').mode = 'markdown';
  });
  assert.equal(await c.p.locator('chatmark-composer [part=preview]').getAttribute('role'), 'region');
  await c.close();
});

test('Enter and Backspace render only the lines they change, and the editor still shows toHtml(value) (issue 50)', {
  skip,
}, async () => {
  // 300 seeded random edits of a 40-line message of plain lines, items, quotes and inline runs
  // across line breaks: after each, what shows is toHtml(value) (a new item's placeholder aside)
  const c = await open('maxlength="100000"');
  c.p.setDefaultTimeout(5000);
  const lines = Array.from(
    { length: 40 },
    (_, k) => [`p${k} **b${k}** {red}r{/red}`, `- item _${k}_`, `> quote ${k}`, `1. n${k} ~~s~~`, ''][k % 5],
  );
  await c.set(await md(c, lines.join('\n')));
  let seed = 50;
  const random = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const keys = ['Enter', 'Backspace', 'Delete', 'Shift+Enter', 'x', 'Control+z', 'Tab', ' '];
  for (let step = 0; step < 300; step++) {
    const { text } = await c.value();
    const at = random(text.length + 1);
    await c.select(at, random(4) ? at : Math.min(text.length, at + random(20)));
    const key = keys[random(keys.length)];
    if (random(10) === 0) await c.button(['Bold', 'Bulleted list', 'Red', 'Indent'][random(4)]).click();
    else await c.p.keyboard.press(key);
    const html = await c.html();
    if (html.includes('\u200b')) continue; // a new item shown before it is typed into
    const v = await c.value();
    assert.equal(html.replace('<br class="x">', ''), await c.shown(v), `step ${step}: ${key} at ${at}`);
  }
  await c.close();
});

test("the demo's mentions: type @, pick from the list by keys or pointer, inserted as text (issue 50)", {
  skip,
}, async () => {
  const p = await browser.context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e));
  await p.goto(`${server.origin}/demo/index.html`);
  await p.waitForSelector('html[data-ready=true]');
  const value = () => p.evaluate(() => document.querySelector('chatmark-composer').value);
  const options = () => p.locator('#mentions [role=option]').allTextContents();
  await p.evaluate(() => {
    document.querySelector('chatmark-composer').value = '';
  });
  await p.locator('chatmark-composer [role=textbox]').click();
  await p.keyboard.type('Hi @');
  assert.equal((await options()).length, 5);
  await p.keyboard.type('r');
  assert.deepEqual(await options(), ['RRavi Shah']); // its avatar's letter, then the name
  await p.keyboard.press('Enter'); // picks; no new line
  assert.deepEqual(await value(), { text: 'Hi @Ravi ', text_styles: [] });
  assert.equal(await p.locator('#mentions').isHidden(), true);
  await p.keyboard.type('and @');
  await p.keyboard.press('ArrowDown');
  await p.keyboard.press('Tab');
  assert.equal((await value()).text, 'Hi @Ravi and @Ana ');
  await p.keyboard.type('@n');
  await p.locator('#mentions [role=option]').first().click();
  assert.equal((await value()).text, 'Hi @Ravi and @Ana @Noor ');
  // a pick is one undo step
  await p.keyboard.press('Control+z');
  assert.equal((await value()).text, 'Hi @Ravi and @Ana @n');
  await p.keyboard.press('Escape');
  assert.equal(await p.locator('#mentions').isHidden(), true);
  assert.deepEqual(errors, []);
  await p.close();
});
