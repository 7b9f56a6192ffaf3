// <chatmark-composer>: the content is toHtml(value), the value parseHtml(content). Edits change
// a model (text, a mask of STYLE_CODES bits per UTF-16 unit) rendered by toHtml, read back.
import * as browser from './browser.js';

const CODES = browser.STYLE_CODES, bit = (c) => 1 << CODES.indexOf(c);
const LIST = 0x6000, INDENT = 0xf8000, LINE = LIST | INDENT;
const family = (b) => [0xf0, 0x1f00, LIST, INDENT].find((f) => f & b) || b;
const esc = (s) => s.replace(/[&<>"\t\n\r\f ]/g, (c) => `&#${c.charCodeAt(0)};`);
const DROP = 'script,style,template,noscript,title,textarea,iframe';
const idx = (n) => [...n.parentNode.childNodes].indexOf(n);
const masks = (v) => {
  const m = Array(v.text.length).fill(0);
  for (const r of v.text_styles) for (let k = r.start; k < r.start + r.len; k++) m[k] = r.st.reduce((a, c) => a | bit(c), 0);
  return m;
};
const TOOLS = [
  ['b', 'B', 'Bold', 'B'], ['i', 'I', 'Italic', 'I'], ['u', 'U', 'Underline', 'U'],
  ['s', 'S', 'Strikethrough', 'Shift+X'], 0, ['c_db342e', 'Red'], ['c_f27806', 'Orange'],
  ['c_f7b503', 'Yellow'], ['c_15a85f', 'Green'], 0, ['f_18', 'A<sup>+</sup>', 'Big'],
  ['f_13', 'a<sub>−</sub>', 'Small'], 0, ['lst_1', '•≡', 'Bulleted list'],
  ['lst_2', '1≡', 'Numbered list'], ['out', '⇤', 'Outdent'], ['in', '⇥', 'Indent'], 0,
  ['md', 'M↓', 'Markdown source'],
];

export class ChatmarkComposer extends HTMLElement {
  static engine = browser;
  static observedAttributes = ['mode', 'max-length', 'placeholder'];

  constructor() {
    super();
    const r = this.attachShadow({ mode: 'open' }), $ = (s) => r.querySelector(s);
    const on = (el, type, f) => el.addEventListener(type, f.bind(this));
    let bar = '';
    for (const t of TOOLS) {
      const [k, icon, label = icon, key] = t || [];
      bar += t ? `<button data-k="${k}" aria-label="${label}" title="${label}${key ? ` (Ctrl+${key})` : ''}"${/^(in|out)$/.test(k) ? '' : ' aria-pressed="false"'} tabindex="-1">${k[0] === 'c' ? `<i style="background:#${k.slice(2)}"></i>` : k[1] ? icon : `<${k}>${icon}</${k}>`}</button>` : '<hr>';
    }
    r.innerHTML = `<link rel="stylesheet" href="${new URL('./composer.css', import.meta.url)}"><div class="box" part="box" style="visibility:hidden"><div role="toolbar" aria-label="Formatting" part="toolbar">${bar}</div><div class="ed" part="editor" role="textbox" aria-multiline="true" aria-label="Message" aria-describedby="ct" spellcheck="true"></div><textarea class="md" part="source" aria-label="Message, markdown source" aria-describedby="ct" hidden></textarea><div class="pv" part="preview" aria-label="Preview" hidden></div><div class="ft" part="footer"><span class="nt" role="status"></span><span id="ct"><span class="ct"></span><span class="sr"> characters left</span></span><button class="sd" part="send">Send</button></div></div>`;
    const tb = $('[role=toolbar]');
    [this._ed, this._ta, this._pv, this._ct, this._nt] = ['.ed', '.md', '.pv', '.ct', '.nt'].map($);
    this._btn = [...r.querySelectorAll('[data-k]')];
    this._css = new Promise((ok) => ($('link').onload = $('link').onerror = ok)).then(() => ($('.box').style.visibility = ''));
    this._btn[0].tabIndex = 0;
    this._v = { text: '', text_styles: [] }; this._md = false;
    const ed = this._ed;
    on(ed, 'beforeinput', this._before);
    on(ed, 'input', (e) => { e.stopPropagation(); if (!e.isComposing) this._readDom(); });
    on(ed, 'compositionend', this._readDom);
    on(ed, 'paste', (e) => { e.preventDefault(); this._sync(); this._paste(e.clipboardData, ...this._sel); });
    on(ed, 'mousedown', () => (this._ptr = 1));
    on(ed, 'focus', () => { if (!this._ptr) this._select(); this._ptr = 0; }); // by keyboard: as it was
    on(this._ta, 'input', (e) => { e.stopPropagation(); this._v = this._e.parseMarkdown(this._ta.value); this._nt.textContent = ''; this._show(1); });
    on(r, 'keydown', this._key);
    on(tb, 'mousedown', (e) => e.preventDefault());
    on(tb, 'click', (e) => { const b = e.target.closest('button'); if (b && !b.disabled) this._tool(b.dataset.k); });
    on($('.sd'), 'click', this.send);
  }

  connectedCallback() { void this.ready; }

  get ready() {
    return (this._ready ??= (async () => {
      const e = this.engine || ChatmarkComposer.engine;
      await (e.init || e.default)?.();
      await this._css;
      this._e = e;
      this._ed.contentEditable = 'true';
      this._set(this._v);
      this._attrs();
    })());
  }

  attributeChangedCallback() {
    if (this._e) this._attrs();
  }

  _attrs() {
    const p = this.placeholder, md = this.mode === 'markdown';
    this._ed.ariaPlaceholder = this._ta.placeholder = p;
    if (md !== this._md) {
      this._md = md;
      this._nt.textContent = '';
      if (md) {
        const r = this._e.toMarkdown(this._v);
        this._ta.value = r.markdown;
        if (!r.lossless) this._nt.textContent = `Not in markdown: ${[...new Set(r.unexpressed.map((u) => u.code || u.what))]}`;
      } else this._load(this._v, 1);
      this._ed.hidden = md; this._ta.hidden = this._pv.hidden = !md;
      for (const b of this._btn) b.disabled = md && b.dataset.k !== 'md';
    }
    this._show();
  }

  get mode() { return this.getAttribute('mode') === 'markdown' ? 'markdown' : 'wysiwyg'; }
  set mode(m) { this.setAttribute('mode', m); }
  get maxLength() { const n = parseInt(this.getAttribute('max-length'), 10); return n >= 0 ? n : 2000; }
  set maxLength(n) { this.setAttribute('max-length', n); }
  get placeholder() { return this.getAttribute('placeholder') || ''; }
  set placeholder(p) { this.setAttribute('placeholder', p); }
  get over() { return this._v.text.length > this.maxLength; }
  get value() { return structuredClone(this._v); }
  set value(v) { if (this._e) this._set(v); else this._v = v; }

  _set(v) {
    const e = this._e, n = (v = e.parseHtml(e.toHtml(v))).text.length;
    this._sel = [n, n]; this._undo = []; this._redo = []; this._pend = null;
    this._load(v, 1);
    if (this._md) this._ta.value = e.toMarkdown(v).markdown;
  }

  setSelectionRange(start, end = start) {
    if (this._md) return this._ta.setSelectionRange(start, end);
    const n = this._t.length;
    this._sel = [Math.min(start, n), Math.min(Math.max(start, end), n)];
    this._pend = null;
    this._ed.focus();
    this._select();
    this._state();
  }

  focus(o) { (this._md ? this._ta : this._ed).focus(o); }

  send() {
    const detail = this.value;
    if (!detail.text || this.over) return false;
    if (this.dispatchEvent(new CustomEvent('send', { detail, bubbles: true, composed: true, cancelable: true }))) {
      this._set({ text: '', text_styles: [] });
      this._show(1);
    }
    return true;
  }

  _load(v, quiet, again) {
    this._t = v.text; this._m = masks(v);
    this._render(quiet, again);
  }

  _render(quiet, again) {
    const t = this._t, m = this._m, e = this._e, runs = [];
    for (let k = 0; k < t.length; k++) {
      const r = runs[runs.length - 1];
      if (r && r.end === k && r.b === m[k]) r.end++;
      else if (m[k]) runs.push({ start: k, end: k + 1, b: m[k] });
    }
    const v = { text: t, text_styles: runs.map(({ start, end, b }) => ({ start, len: end - start, st: CODES.filter((c) => b & bit(c)) })) };
    const html = e.toHtml(v), back = e.parseHtml(html);
    if (!again && JSON.stringify(back) !== JSON.stringify(v)) return this._load(back, quiet, 1);
    this._v = v;
    if (!this._md) {
      const keep = this._rng();
      this._ed.innerHTML = html;
      if (t.endsWith('\n')) { // a last <br> shows no line
        const br = document.createElement('br');
        br.className = 'x';
        this._leaves().pop().after(br);
      }
      if (keep || this.shadowRoot.activeElement === this._ed) this._select();
    }
    this._show(!quiet);
  }

  _show(fire) {
    const n = this.maxLength - this._v.text.length, over = n < 0;
    this._ct.textContent = n;
    this.toggleAttribute('over', over);
    this._ed.ariaInvalid = this._ta.ariaInvalid = over;
    if (this._md) this._pv.innerHTML = this._e.toHtml(this._v);
    this._state();
    if (fire) this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  }

  // typing at [s, e) takes: pending codes, the unit's before on its line, after, or the \n's
  _maskAt(s, e = s) {
    const p = this._pend, t = this._t;
    if (p && p.at === s && s === e) return p.mask;
    return s && t[s - 1] !== '\n' ? this._m[s - 1] : e < t.length && t[e] !== '\n' ? this._m[e] : s && this._m[s - 1];
  }

  _mask(s, e) {
    if (s === e) return this._maskAt(s);
    let m = -1;
    for (let k = s; k < e; k++) if (this._t[k] !== '\n') m &= this._m[k];
    return m < 0 ? 0 : m;
  }

  _snap(kind) {
    if (!kind || kind !== this._kind) this._undo.push([this._t, this._m.slice(), this._sel]);
    this._kind = kind; this._redo = [];
  }

  _history(redo) {
    const [from, to] = redo ? [this._redo, this._undo] : [this._undo, this._redo], h = from.pop();
    if (!h) return;
    to.push([this._t, this._m.slice(), this._sel]);
    [this._t, this._m, this._sel] = h;
    this._kind = null;
    this._render();
  }

  _edit(s, e, str, m, kind) {
    this._snap(kind);
    const base = this._maskAt(s, e), t = this._t = this._t.slice(0, s) + str + this._t.slice(e);
    this._m.splice(s, e - s, ...(m || Array.from(str, () => base)));
    for (let k = 0, l = -1; k < t.length; k++) { // line codes: the line's first unit's
      if (t[k] === '\n') { this._m[k] &= ~LINE; l = -1; } else { if (l < 0) l = this._m[k] & LINE; this._m[k] = (this._m[k] & ~LINE) | l; }
    }
    this._pend = null;
    this._sel = [s + str.length, s + str.length];
    this._render();
  }

  _before(ev) {
    this._sync();
    const type = ev.inputType, [s, e] = this._sel, t = this._t, r = ev.getTargetRanges()[0];
    const target = r ? this._offs(r) : [s, e];
    // the rest (IME, cut, menus) the browser does: read back after
    if (ev.isComposing || !/^(history|insert(Text|ReplacementText|Paragraph|LineBreak|FromDrop)$|delete(?!ByCut))/.test(type)) return;
    ev.preventDefault();
    if (type.startsWith('history')) this._history(type === 'historyRedo');
    else if (type === 'insertText') this._edit(s, e, ev.data, 0, /\s/.test(ev.data) ? 0 : 'type');
    else if (type === 'insertReplacementText') this._edit(...target, ev.data ?? ev.dataTransfer.getData('text/plain'));
    else if (/^insert(Paragraph|LineBreak)/.test(type)) {
      const p = this._pend, keep = this._maskAt(s, e);
      if (s === e && p && p.at === s && p.mask & LINE) { p.mask &= ~LINE; return this._state(); }
      this._edit(s, e, '\n');
      if (keep & LINE && /^\n?$/.test(this._t[s + 1] || '')) { this._pend = { at: s + 1, mask: keep }; this._state(); }
    } else if (type === 'insertFromDrop') this._paste(ev.dataTransfer, ...target);
    else if (type.startsWith('delete') && type !== 'deleteByDrag') {
      if (type === 'deleteContentBackward' && s === e && (!s || t[s - 1] === '\n') && this._m[s] & LINE) return this._line(this._m[s] & LIST ? 'lst' : 'out');
      if (target[0] !== target[1]) this._edit(...target, '', 0, 'del');
    }
  }

  _paste(data, s, e) {
    const html = data.getData('text/html');
    if (!html) return this._edit(s, e, data.getData('text/plain').replace(/\r\n?/g, '\n'));
    const doc = new DOMParser().parseFromString(html, 'text/html'); // inert
    for (const n of doc.querySelectorAll(DROP)) n.remove();
    const v = this._e.parseHtml(doc.body.innerHTML);
    this._edit(s, e, v.text, masks(v));
  }

  _key(ev) {
    const mod = ev.ctrlKey || ev.metaKey, k = ev.key, btn = this._btn, i = btn.indexOf(ev.target), n = btn.length;
    if (mod && k === 'Enter') { ev.preventDefault(); this.send(); }
    else if (i >= 0 && /^Arrow(Left|Right)$/.test(k)) {
      const b = btn[(i + (k === 'ArrowLeft' ? n - 1 : 1)) % n];
      ev.target.tabIndex = -1; b.tabIndex = 0; b.focus();
      ev.preventDefault();
    } else if (mod && !ev.altKey && ev.target === this._ed) {
      const code = { b: 'b', i: 'i', u: 'u', X: 's' }[ev.shiftKey ? k.toUpperCase() : k.toLowerCase()];
      if (code) { ev.preventDefault(); this._tool(code); }
      else if (/^[zy]$/i.test(k)) { ev.preventDefault(); this._history(/y/i.test(k) || ev.shiftKey); }
    }
  }

  _sync() {
    const r = this._rng(), p = this._pend;
    if (!r) return;
    const [s, e] = (this._sel = this._offs(r));
    if (p && (s !== p.at || e !== p.at)) this._pend = null;
    return 1;
  }

  _tool(k) {
    this._sync();
    if (k === 'md') return (this.mode = this._md ? 'wysiwyg' : 'markdown'), this.focus();
    if (/^(in|out|lst)/.test(k)) this._line(k);
    else {
      const b = bit(k), f = family(b), [s, e] = this._sel, on = this._mask(s, e) & b;
      if (s === e) {
        const m = this._maskAt(s);
        this._pend = { at: s, mask: on ? m & ~b : (m & ~f) | b };
        this._kind = 0;
        this._state();
      } else {
        this._snap();
        for (let i = s; i < e; i++) this._m[i] = on ? this._m[i] & ~b : (this._m[i] & ~f) | b;
        this._render();
      }
    }
    this._ed.focus();
  }

  _line(k) {
    const [s, e] = this._sel, t = this._t, a = t.lastIndexOf('\n', s - 1) + 1, b = /^lst_/.test(k) && bit(k);
    let z = t.indexOf('\n', Math.max(e - (e > s), s));
    if (z < 0) z = t.length;
    const on = this._mask(a, z) & b, next = (m) => {
      if (k === 'lst') return m & ~LIST;
      if (b) return on ? m & ~b : (m & ~LIST) | b;
      const c = CODES.find((c, i) => m & (1 << i) && c.startsWith('ind'));
      const n = Math.max(0, Math.min(5, (c ? +c[4] : 0) + (k === 'in' ? 1 : -1)));
      return (m & ~INDENT) | (n && bit(`ind_${n}`));
    };
    if (a === z) {
      this._pend = { at: s, mask: next(this._maskAt(s)) };
      return this._state();
    }
    this._snap();
    for (let i = a; i < z; i++) if (t[i] !== '\n') this._m[i] = next(this._m[i]);
    this._render();
  }

  _state() {
    const [s, e] = this._sel, m = this._md ? 0 : this._mask(s, e);
    for (const b of this._btn) if (b.ariaPressed) b.ariaPressed = b.dataset.k === 'md' ? this._md : !!(m & bit(b.dataset.k));
    this.shadowRoot.querySelector('.sd').ariaDisabled = !this._v.text || this.over;
  }

  // UTF-16 offsets of DOM points: text nodes, and <br> as \n
  _leaves() {
    const w = document.createTreeWalker(this._ed, 5, { acceptNode: (n) => (n.nodeType === 3 || n.localName === 'br' ? 1 : 3) });
    const out = [];
    while (w.nextNode()) out.push(w.currentNode);
    return out;
  }

  _off(node, o) {
    const p = document.createRange();
    p.setStart(node, o);
    let n = 0;
    for (const l of this._leaves()) {
      if (l === node) return n + o;
      if (l.className === 'x' || p.comparePoint(l, l.length ?? 0) > 0) break; // ends after the point
      n += l.length ?? 1;
    }
    return n;
  }

  _offs(r) { return [this._off(r.startContainer, r.startOffset), this._off(r.endContainer, r.endOffset)]; }

  _point(k) {
    let n = 0, l;
    for (l of this._leaves()) {
      const text = l.nodeType === 3;
      if (k <= n + (text ? l.length : 0)) return text ? [l, k - n] : [l.parentNode, idx(l)];
      n += l.length ?? 1;
    }
    return l ? [l.parentNode, idx(l) + 1] : [this._ed, 0];
  }

  _rng() { // the selection, when in the text
    const r = document.getSelection().getComposedRanges({ shadowRoots: [this.shadowRoot] })[0];
    return r && this._ed.contains(r.startContainer) && r;
  }

  _select() { document.getSelection().setBaseAndExtent(...this._point(this._sel[0]), ...this._point(this._sel[1])); }

  // the browser's edits: serialise (whitespace as references: H6 keeps it), parseHtml
  _readDom() {
    const ser = (node) => {
      let out = '';
      for (const c of node.childNodes) {
        if (c.nodeType === 3) out += esc(c.data);
        else if (c.nodeType === 1 && c.className !== 'x' && !c.matches(DROP)) {
          const tag = c.localName, st = c.getAttribute('style');
          out += `<${tag}${st ? ` style="${esc(st)}"` : ''}>${tag === 'br' ? '' : `${ser(c)}</${tag}>`}`;
        }
      }
      return out;
    };
    this._snap();
    this._sync();
    this._pend = null;
    this._load(this._e.parseHtml(ser(this._ed)));
  }
}

document.addEventListener('selectionchange', () => {
  const c = document.activeElement;
  if (c instanceof ChatmarkComposer && c._sync()) c._state();
});
if (!customElements.get('chatmark-composer')) customElements.define('chatmark-composer', ChatmarkComposer);
