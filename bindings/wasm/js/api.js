// The JS API of the npm package `chatmark`, shared by every entry (node, browser, inline).
// A thin wrapper over the wasm-bindgen exports of bindings/wasm/src/lib.rs: arguments go in
// as strings (objects as JSON text), one JSON string comes back, parsed here; an
// `{"error": …}` answer becomes a thrown ChatmarkError. Offsets are UTF-16 units, the same
// as JS string indices. Lone surrogates become U+FFFD on the way in (L2): JSON.stringify
// escapes them and the engine reads the escapes lossily; plain string arguments are encoded
// by TextEncoder, which replaces them.
import * as wasm from '../pkg/chatmark_wasm.js';

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

let ready = false;

/** Called by each entry once the wasm instance is initialised. @internal */
export function markReady() {
  ready = true;
}

/** Calls into wasm; anything thrown there (a trap cannot happen, but) becomes a ChatmarkError. */
function call(f, ...args) {
  if (!ready) {
    throw new ChatmarkError(
      'not_initialized',
      '',
      'chatmark is not initialised: `await init()` first, or import the node or inline entry',
    );
  }
  let out;
  try {
    out = f(...args);
  } catch (e) {
    throw new ChatmarkError('internal_error', '', `chatmark failed: ${e && e.message ? e.message : e}`);
  }
  const v = JSON.parse(out);
  if (v !== null && typeof v === 'object' && v.error) {
    throw new ChatmarkError(v.error.code, v.error.field, v.error.message);
  }
  return v;
}

/** JSON text of a value: BigInts as numbers; what JSON cannot hold is an invalid_json error. */
function stringify(value, field) {
  let s;
  try {
    s = JSON.stringify(value === undefined ? null : value, (_, v) =>
      typeof v === 'bigint' ? Number(v) : v,
    );
  } catch (e) {
    throw new ChatmarkError('invalid_json', field, `${field} cannot be written as JSON: ${e.message}`);
  }
  return s === undefined ? 'null' : s;
}

function wantsDiagnostics(options) {
  return !!(options && options.diagnostics);
}

function checkText(text) {
  if (typeof text !== 'string') {
    throw new ChatmarkError('invalid_text', 'text', 'text must be a string');
  }
}

function limit(options, name) {
  const n = options ? options[name] : undefined;
  if (n === undefined || n === null) return undefined;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw new ChatmarkError('invalid_options', name, `${name} must be a non-negative integer`);
  }
  return Math.min(n, 0xffffffff);
}

/**
 * Parses `text` in `mode` ('markdown', 'html' or 'plain'; absent means plain).
 * @returns {{text: string, text_styles: Array<{start: number, len: number, st: string[]}>}}
 */
export function parse(text, mode, options) {
  checkText(text);
  const m = mode === undefined || mode === null ? 'plain' : mode;
  if (typeof m !== 'string') {
    throw new ChatmarkError('invalid_parse_mode', 'parse_mode', 'parse_mode must be a string');
  }
  if (!wantsDiagnostics(options) && ready) {
    // fast path: text as a string, runs as packed u32 triples (start, len, code mask)
    const out = wasm.parse_packed(text, m);
    if (out !== undefined) return { text: out, text_styles: unpackRuns(wasm.take_runs()) };
  }
  return call(wasm.parse, text, m, wantsDiagnostics(options));
}

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

function unpackRuns(packed) {
  const runs = new Array(packed.length / 3);
  for (let k = 0, i = 0; i < packed.length; k++, i += 3) {
    runs[k] = { start: packed[i], len: packed[i + 1], st: codesOf(packed[i + 2]) };
  }
  return runs;
}

/** Parses the markdown dialect (spec section 2). */
export function parseMarkdown(text, options) {
  return parse(text, 'markdown', options);
}

/** Parses the HTML subset (spec section 3). */
export function parseHtml(text, options) {
  return parse(text, 'html', options);
}

/**
 * Normalises client runs (spec section 4); `st` may be an array or a comma string. Returns
 * the canonical runs, or `{text_styles, diagnostics}` when `options.diagnostics`.
 */
export function normalizeStyles(text, styles, options) {
  checkText(text);
  const v = call(wasm.normalize_styles, text, stringify(styles, 'text_styles'), wantsDiagnostics(options));
  return wantsDiagnostics(options) ? v : v.text_styles;
}

/**
 * Resolves a `sendMessage` body `{chat_id, text, parse_mode?, text_styles?}` (spec section 5)
 * into `{text, text_styles}`, or throws a ChatmarkError. Options: `diagnostics`,
 * `checkChatId` (default true; false as the formatting-only tools do), `maxTextLen` and
 * `maxTextStyles` (0 lifts a limit).
 */
export function resolveSendMessage(body, options) {
  const checkChatId = !(options && options.checkChatId === false);
  return call(
    wasm.resolve,
    stringify(body, 'body'),
    checkChatId,
    limit(options, 'maxTextLen'),
    limit(options, 'maxTextStyles'),
    wantsDiagnostics(options),
  );
}

/**
 * The JSONL conformance contract for one line, as `chatmark --jsonl` answers it: the JSON
 * text of `{text, text_styles}` or `{error: {code, field, message}}`. Never throws on input.
 */
export function resolveJsonl(line) {
  if (!ready) call(() => '{}');
  try {
    return wasm.resolve_jsonl(String(line));
  } catch (e) {
    return JSON.stringify({ error: { code: 'internal_error', field: '', message: String(e) } });
  }
}

function formattedJson(formatted) {
  return stringify(formatted, 'formatted');
}

/** Renders `{text, text_styles}` as an HTML fragment (W1); runs are normalised first. */
export function toHtml(formatted) {
  return call(wasm.to_html, formattedJson(formatted)).html;
}

/**
 * Renders `{text, text_styles}` as markdown (W2): `{markdown, lossless, unexpressed}`, where
 * `unexpressed` lists what markdown could not say (empty exactly when `lossless`).
 */
export function toMarkdown(formatted) {
  return call(wasm.to_markdown, formattedJson(formatted));
}
