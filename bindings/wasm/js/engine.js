// The JS half of the wasm boundary, shared by every entry (bindings/wasm/src/lib.rs is the
// other half). No JSON crosses it and wasm-bindgen marshals no string: inputs are written
// straight into buffers in wasm memory (markdown and HTML text as the UTF-16 units of the
// JS string, which the engine parses as they are; other text with TextEncoder.encodeInto;
// client-run fields as f64), every export takes and returns numbers, and results are read
// through typed-array views over wasm memory: runs as (start, len, code mask) u32 triples
// turned into plain objects with a cached table of code arrays, strings as UTF-16 units.
// Plain text is answered here, with no call into the wasm. Lone surrogates
// read as U+FFFD, one unit each (L2): the engine replaces them in UTF-16 input, encodeInto
// does in UTF-8 input, and `toWellFormed` does when the engine answers "the text is the
// input" to UTF-8 input. What needs JSON (resolveJsonl) parses it here.

/** The package (and engine) version. */
export const version = '0.1.0';

/** The closed set of style codes, in table order (spec 1.1). */
export const STYLE_CODES = Object.freeze([
  'b', 'i', 'u', 's',
  'f_13', 'f_15', 'f_18', 'f_20',
  'c_050a19', 'c_15a85f', 'c_f7b503', 'c_f27806', 'c_db342e',
  'lst_1', 'lst_2',
  'ind_1', 'ind_2', 'ind_3', 'ind_4', 'ind_5',
]);

/** A refused message or a bad argument: a stable `code`, the `field` concerned, a message. */
export class ChatmarkError extends Error {
  constructor(code, field, message) {
    super(message);
    this.name = 'ChatmarkError';
    this.code = code;
    this.field = field;
  }

  /** The wire shape `{code, field, message}`. */
  toJSON() {
    return { code: this.code, field: this.field, message: this.message };
  }
}

// statuses of the exports (lib.rs OK, ERROR, UNSUPPORTED)
const OK = 0;
const UNSUPPORTED = 2;
const SAME_TEXT = 0xffffffff;
const MODES = { plain: 0, markdown: 1, html: 2 };

const encoder = new TextEncoder();
const utf16 = new TextDecoder('utf-16le');
const hasOwnEnumerable = Object.prototype.propertyIsEnumerable;

/** The code arrays of each mask seen so far (bit k: the k-th code of the table). */
const codesOfMask = new Map();

function codesOf(mask) {
  let codes = codesOfMask.get(mask);
  if (codes === undefined) {
    codes = [];
    for (let k = 0; k < STYLE_CODES.length; k++) if (mask & (1 << k)) codes.push(STYLE_CODES[k]);
    codesOfMask.set(mask, codes);
  }
  return codes.slice(); // callers own their arrays
}

/** `s` with lone surrogates replaced by U+FFFD, as the engine reads it (L2). */
const wellFormed = typeof ''.toWellFormed === 'function'
  ? (s) => s.toWellFormed()
  : (s) => s.replace(/\p{Cs}/gu, '\ufffd');

/** ASCII lower case, as R2 compares modes (`'MARKDOWN'` but not a Kelvin sign `K`). */
function asciiLower(s) {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** A value as JSON.stringify would write it (toJSON, BigInt as a number, NaN as null…);
 *  undefined when it would be left out. */
function jv(v, key) {
  if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
    const toJSON = v.toJSON;
    if (typeof toJSON === 'function') v = toJSON.call(v, key);
  }
  switch (typeof v) {
    case 'bigint':
      return Number(v);
    case 'number':
      // N1: numbers are read by value and ±Infinity saturates (the engine clamps it); NaN is
      // no number at all
      return Number.isNaN(v) ? null : v;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      if (v instanceof Number || v instanceof BigInt) return jv(Number(v), key);
      if (v instanceof String) return String(v);
      if (v instanceof Boolean) return v.valueOf();
      return v;
    default:
      return v;
  }
}

/** Runs `read` (which reads JS values as JSON), turning what JSON cannot write into
 *  an invalid_json error for `field`. */
function asJson(field, read) {
  try {
    return read();
  } catch (e) {
    if (e instanceof ChatmarkError) throw e;
    throw new ChatmarkError('invalid_json', field, `${field} cannot be written as JSON: ${e && e.message}`);
  }
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Field `k` of a JSON object as JSON.stringify would write it (own enumerable keys). */
function member(obj, k) {
  return hasOwnEnumerable.call(obj, k) ? jv(obj[k], k) : undefined;
}

/** A body field's tag: 0 absent, 1 null, 2 of the wrong type, 3 a value. */
function tag(v, ok) {
  if (v === undefined) return 0;
  if (v === null) return 1;
  return ok ? 3 : 2;
}

/**
 * Client runs as N1 and N2 read JSON: per run `start` and `len` (numbers, else NaN, so the
 * engine judges integrality), `st` as a list of strings, a comma string, or neither.
 */
function readRuns(items) {
  const runs = new Array(items.length);
  for (let k = 0; k < items.length; k++) {
    const item = jv(items[k], String(k));
    if (!isObject(item)) {
      runs[k] = { start: NaN, len: NaN, kind: 0, codes: null };
      continue;
    }
    const start = member(item, 'start');
    const len = member(item, 'len');
    const st = member(item, 'st');
    let kind = 0;
    let codes = null;
    if (Array.isArray(st)) {
      kind = 1;
      codes = [];
      for (let j = 0; j < st.length; j++) {
        const c = jv(st[j], String(j));
        if (typeof c === 'string') codes.push(c);
      }
    } else if (typeof st === 'string') {
      kind = 2;
      codes = [st];
    }
    runs[k] = {
      start: typeof start === 'number' ? start : NaN,
      len: typeof len === 'number' ? len : NaN,
      kind,
      codes,
    };
  }
  return runs;
}

/** R6's default cap, which the native render and normalise tools apply too. */
const MAX_TEXT_STYLES = 10000;

/** R6: refuses more client runs than `max` (0: no cap) before any is read. */
function checkRunCount(items, max = MAX_TEXT_STYLES) {
  if (max !== 0 && items.length > max) {
    throw new ChatmarkError('too_many_text_styles', 'text_styles', `text_styles has more than ${max} entries, the limit`);
  }
}

function invalidStyles() {
  return new ChatmarkError('invalid_text_styles', 'text_styles', 'text_styles must be an array');
}

function checkText(text) {
  if (typeof text !== 'string') {
    throw new ChatmarkError('invalid_text', 'text', 'text must be a string');
  }
}

function wantsDiagnostics(options) {
  return !!(options && options.diagnostics);
}

function limit(options, name) {
  const n = options ? options[name] : undefined;
  if (n === undefined || n === null) return -1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw new ChatmarkError('invalid_options', name, `${name} must be a non-negative integer`);
  }
  return n;
}

/**
 * The API over one wasm build: `html` says whether it has HTML mode (the `chatmark` entry)
 * or not (`chatmark/markdown`, whose HTML bodies answer `unsupported_parse_mode`).
 * `markReady(exports)` is called by the entry once the instance exists.
 */
export function createApi({ html, entry }) {
  let ex = null; // the raw wasm exports
  let u8;
  let u16;
  let u32;
  let f64;
  let head = 0; // word index of lib.rs HEAD
  let inPtr = 0;
  let inCap = 0;
  let numAt = 0; // f64 index of the input numbers
  let numCap = 0;
  let unitAt = 0; // u16 index of the input units
  let unitCap = 0;
  let inView = null; // the input bytes
  let NodeBuffer = null; // Node's Buffer, when the entry passes it: a faster UTF-16 decoder
  let nodeView = null; // a Buffer over wasm memory

  function views() {
    const mem = ex.memory.buffer;
    u8 = new Uint8Array(mem);
    u16 = new Uint16Array(mem);
    u32 = new Uint32Array(mem);
    f64 = new Float64Array(mem);
    inPtr = u32[head];
    inCap = u32[head + 1];
    numAt = u32[head + 2] >>> 3;
    numCap = u32[head + 3];
    unitAt = u32[head + 8] >>> 1;
    unitCap = u32[head + 9];
    inView = u8.subarray(inPtr, inPtr + inCap);
    nodeView = NodeBuffer ? NodeBuffer.from(mem) : null;
  }

  /** After a call: the memory may have grown, which detaches the old views (length 0). */
  function fresh() {
    if (u32.length === 0) views();
  }

  function reserve(bytes, nums, units = 0) {
    if (bytes > inCap || nums > numCap || units > unitCap) {
      const grow = (want, cap, least) => (want > cap ? Math.max(want, cap * 2, least) : cap);
      ex.reserve(grow(bytes, inCap, 256), grow(nums, numCap, 64), grow(units, unitCap, 256));
      views();
    }
  }

  function ready() {
    if (ex === null) {
      throw new ChatmarkError(
        'not_initialized',
        '',
        'chatmark is not initialised: `await init()` first, or import the node or inline entry',
      );
    }
  }

  /** A string of the UTF-16 output: `len` units from unit `off`. */
  function str(off, len) {
    const at = (u32[head + 6] >>> 1) + off;
    // Node 20: Buffer's UTF-16 decoder is 3 to 4 times as fast as TextDecoder's
    if (nodeView !== null) return nodeView.toString('utf16le', 2 * at, 2 * (at + len));
    // measured in Node 20: fromCharCode wins below about 24 units, the decoder above
    if (len <= 24) return String.fromCharCode.apply(null, u16.subarray(at, at + len));
    return utf16.decode(u16.subarray(at, at + len));
  }

  /** Writes `s` as UTF-8 at byte `pos` of the input; returns the byte after it. */
  function put(s, pos) {
    const n = s.length;
    if (n <= 32) {
      let k = 0;
      for (; k < n; k++) {
        const c = s.charCodeAt(k);
        if (c >= 0x80) break;
        inView[pos + k] = c;
      }
      if (k === n) return pos + n;
    }
    return pos + encoder.encodeInto(s, pos === 0 ? inView : inView.subarray(pos)).written;
  }

  /** Room for the runs' code strings and numbers, and the bytes of `strings` too. */
  function reserveFor(runs, strings) {
    let bytes = 0;
    let nums = 4 * runs.length;
    for (const s of strings) bytes += s.length;
    for (const r of runs) {
      if (r.codes) {
        nums += 2 * r.codes.length;
        for (const c of r.codes) bytes += c.length;
      }
    }
    reserve(3 * bytes, nums);
  }

  /** Writes the runs' numbers and code strings (from byte `pos`), as lib.rs read_runs reads. */
  function putRuns(runs, pos) {
    let i = numAt;
    for (const r of runs) {
      f64[i] = r.start;
      f64[i + 1] = r.len;
      f64[i + 2] = r.kind;
      const codes = r.codes;
      const n = codes ? codes.length : 0;
      f64[i + 3] = n;
      i += 4;
      for (let j = 0; j < n; j++) {
        const end = put(codes[j], pos);
        f64[i] = pos;
        f64[i + 1] = end - pos;
        i += 2;
        pos = end;
      }
    }
  }

  function readRunsOut(o, runs, n) {
    for (let k = 0; k < n; k++, o += 3) {
      runs[k] = { start: u32[o], len: u32[o + 1], st: codesOf(u32[o + 2]) };
    }
    return o;
  }

  function readDiagnostics(o) {
    const n = u32[o++];
    const diags = new Array(n);
    for (let k = 0; k < n; k++, o += 6) {
      diags[k] = {
        code: str(u32[o], u32[o + 1]),
        start: u32[o + 2],
        len: u32[o + 3],
        message: str(u32[o + 4], u32[o + 5]),
      };
    }
    return diags;
  }

  /** The formatted result of the last call; `input` is the text it read, `checked` whether
   *  the engine answers "unchanged" only when the input is well formed (UTF-16 input). */
  function formatted(input, diagnostics, checked = false) {
    fresh();
    let o = u32[head + 4] >>> 2;
    const textLen = u32[o++];
    const text = textLen !== SAME_TEXT ? str(0, textLen) : checked ? input : wellFormed(input);
    const n = u32[o++];
    const runs = new Array(n);
    o = readRunsOut(o, runs, n);
    if (!diagnostics) return { text, text_styles: runs };
    return { text, text_styles: runs, diagnostics: readDiagnostics(o) };
  }

  function error() {
    fresh();
    const o = u32[head + 4] >>> 2;
    return new ChatmarkError(str(u32[o], u32[o + 1]), str(u32[o + 2], u32[o + 3]), str(u32[o + 4], u32[o + 5]));
  }

  function unsupported() {
    return new ChatmarkError(
      'unsupported_parse_mode',
      'parse_mode',
      `parse_mode "html" is not supported by ${entry}; import "chatmark" for HTML`,
    );
  }

  /** Writes `text` as its UTF-16 units (lone surrogates too) into the input units. */
  function putUnits(text) {
    const n = text.length;
    reserve(0, 0, n);
    // Node: Buffer's UTF-16 writer copies the string's units in one call; elsewhere a loop
    // over charCodeAt, which beats TextEncoder.encodeInto on short strings
    if (nodeView !== null) nodeView.write(text, 2 * unitAt, 2 * n, 'utf16le');
    else for (let k = 0; k < n; k++) u16[unitAt + k] = text.charCodeAt(k);
    return n;
  }

  /** Parses `text` in markdown mode through the UTF-16 entry. */
  function markdown(text, diagnostics) {
    ex.parse_markdown(putUnits(text), diagnostics);
    return formatted(text, diagnostics, true);
  }

  /** Parses `text` in HTML mode through the UTF-16 entry (the `chatmark` build only). */
  function htmlMode(text, diagnostics) {
    ex.parse_html(putUnits(text), diagnostics);
    return formatted(text, diagnostics, true);
  }

  function parse(text, mode, options) {
    ready();
    checkText(text);
    const m = mode === undefined || mode === null ? 'plain' : mode;
    if (typeof m !== 'string') {
      throw new ChatmarkError('invalid_parse_mode', 'parse_mode', 'parse_mode must be a string');
    }
    const lower = asciiLower(m);
    if (!Object.hasOwn(MODES, lower)) {
      throw new ChatmarkError(
        'invalid_parse_mode',
        'parse_mode',
        'parse_mode must be "markdown", "html" or "plain"',
      );
    }
    const code = MODES[lower];
    if (code === 2 && !html) throw unsupported();
    const diagnostics = wantsDiagnostics(options);
    if (code === 1) return markdown(text, diagnostics);
    if (code === 2) return htmlMode(text, diagnostics);
    // plain: the text as sent, lone surrogates as U+FFFD (L2), no runs, nothing to report
    const plain = { text: wellFormed(text), text_styles: [] };
    if (diagnostics) plain.diagnostics = [];
    return plain;
  }

  function parseMarkdown(text, options) {
    ready();
    checkText(text);
    return markdown(text, wantsDiagnostics(options));
  }

  function parseHtml(text, options) {
    ready();
    checkText(text);
    return htmlMode(text, wantsDiagnostics(options));
  }

  function normalizeStyles(text, styles, options) {
    ready();
    checkText(text);
    const runs = asJson('text_styles', () => {
      const items = jv(styles, '');
      if (!Array.isArray(items)) throw invalidStyles();
      checkRunCount(items);
      return readRuns(items);
    });
    reserveFor(runs, [text]);
    const textLen = put(text, 0);
    putRuns(runs, textLen);
    const diagnostics = wantsDiagnostics(options);
    ex.normalize(textLen, runs.length, diagnostics);
    fresh();
    let o = u32[head + 4] >>> 2;
    const n = u32[o++];
    const out = new Array(n);
    o = readRunsOut(o, out, n);
    return diagnostics ? { text_styles: out, diagnostics: readDiagnostics(o) } : out;
  }

  function resolveSendMessage(body, options) {
    ready();
    const checkChatId = !(options && options.checkChatId === false);
    const maxTextLen = limit(options, 'maxTextLen');
    const maxTextStyles = limit(options, 'maxTextStyles');
    const diagnostics = wantsDiagnostics(options);
    const read = asJson('body', () => {
      const b = jv(body, '');
      const obj = isObject(b) ? b : {};
      const chat = member(obj, 'chat_id');
      const text = member(obj, 'text');
      const mode = member(obj, 'parse_mode');
      const styles = member(obj, 'text_styles');
      const stylesTag = tag(styles, Array.isArray(styles));
      return {
        chatOk: (typeof chat === 'string' && chat !== '') ||
          (typeof chat === 'number' && (Number.isInteger(chat) || Math.abs(chat) === Infinity)),
        textTag: tag(text, typeof text === 'string'),
        modeTag: tag(mode, typeof mode === 'string'),
        stylesTag,
        text,
        mode,
        runs: stylesTag === 3 ? readRuns(styles) : [],
      };
    });
    const { chatOk, textTag, modeTag, stylesTag, runs } = read;
    const t = textTag === 3 ? read.text : '';
    const m = modeTag === 3 ? read.mode : '';
    reserveFor(runs, [t, m]);
    const textLen = put(t, 0);
    const end = put(m, textLen);
    putRuns(runs, end);
    const status = ex.resolve(
      checkChatId, chatOk, textTag, textLen, modeTag, end - textLen, stylesTag, runs.length,
      maxTextLen, maxTextStyles, diagnostics,
    ) >>> 0;
    if (status === OK) return formatted(t, diagnostics);
    if (status === UNSUPPORTED) throw unsupported();
    throw error();
  }

  /** The message to render, as the render tools read it: text required, runs lenient. */
  function renderInput(message) {
    ready();
    const [text, runs] = asJson('formatted', () => {
      const f = jv(message, '');
      const t = isObject(f) ? member(f, 'text') : undefined;
      if (t === undefined || t === null) {
        throw new ChatmarkError('missing_text', 'text', 'text is required');
      }
      if (typeof t !== 'string') throw new ChatmarkError('invalid_text', 'text', 'text must be a string');
      const styles = member(f, 'text_styles');
      if (styles !== undefined && styles !== null && !Array.isArray(styles)) throw invalidStyles();
      if (styles) checkRunCount(styles);
      return [t, styles ? readRuns(styles) : []];
    });
    reserveFor(runs, [text]);
    const textLen = put(text, 0);
    putRuns(runs, textLen);
    return [textLen, runs.length];
  }

  function toHtml(message) {
    const [textLen, n] = renderInput(message);
    ex.render_html(textLen, n);
    fresh();
    const o = u32[head + 4] >>> 2;
    return str(u32[o], u32[o + 1]);
  }

  function toMarkdown(message) {
    const [textLen, n] = renderInput(message);
    ex.render_markdown(textLen, n);
    fresh();
    let o = u32[head + 4] >>> 2;
    const markdown = str(u32[o], u32[o + 1]);
    const lossless = u32[o + 2] === 1;
    const n2 = u32[o + 3];
    o += 4;
    const unexpressed = new Array(n2);
    for (let k = 0; k < n2; k++, o += 6) {
      const u = { start: u32[o], len: u32[o + 1], what: str(u32[o + 2], u32[o + 3]) };
      if (u32[o + 5] > 0) u.code = str(u32[o + 4], u32[o + 5]);
      unexpressed[k] = u;
    }
    return { markdown, lossless, unexpressed };
  }

  // one JSONL answer: U+2028 and U+2029 escaped, as `chatmark --jsonl` writes them, so
  // that a reader splitting lines as JavaScript does still sees one answer per line
  const jsonLine = (v) => JSON.stringify(v).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));

  function resolveJsonl(line) {
    let body;
    const text = String(line);
    try {
      // as the native reader: any nesting, numbers by value (1e400 is Infinity, which the
      // engine saturates, N1)
      body = JSON.parse(text);
    } catch (e) {
      return jsonLine({ error: { code: 'invalid_json', field: 'body', message: `body is not JSON: ${e.message}` } });
    }
    try {
      const r = resolveSendMessage(body, { checkChatId: false });
      return jsonLine(r);
    } catch (e) {
      if (e instanceof ChatmarkError) return jsonLine({ error: e.toJSON() });
      return jsonLine({ error: { code: 'internal_error', field: '', message: String(e) } });
    }
  }

  /** The engine's version and style codes, as the wasm says them (for the tests). */
  function about() {
    ready();
    ex.about();
    fresh();
    const o = u32[head + 4] >>> 2;
    const n = u32[head + 5] / 2;
    const strings = [];
    for (let k = 0; k < n; k++) strings.push(str(u32[o + 2 * k], u32[o + 2 * k + 1]));
    return { version: strings[0], codes: strings.slice(1), html: ex.has_html() !== 0 };
  }

  /** Called by the entry with the wasm exports (and, in Node, `{Buffer}`). */
  function markReady(exports, host) {
    ex = exports;
    NodeBuffer = (host && host.Buffer) || null;
    head = ex.head() >>> 2;
    ex.reserve(256, 64, 256);
    views();
  }

  return {
    markReady, parse, parseMarkdown, parseHtml, normalizeStyles, resolveSendMessage,
    resolveJsonl, toHtml, toMarkdown, about,
  };
}

/**
 * The `init` of a browser entry: runs the wasm-bindgen initialiser `wbInit` once (with a URL,
 * Response, bytes or WebAssembly.Module, or its default fetch) and hands the exports to
 * `ready`; later calls return the same promise, and a failed fetch may be retried.
 */
export function initOnce(wbInit, ready) {
  let pending;
  return function init(input) {
    if (!pending) {
      pending = wbInit(input === undefined ? undefined : { module_or_path: input }).then(ready);
      pending.catch(() => {
        pending = undefined;
      });
    }
    return pending;
  };
}
