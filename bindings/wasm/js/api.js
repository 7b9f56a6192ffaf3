// The JS API of the npm package `chatmark` (everything: markdown, HTML, plain, rendering both
// ways), shared by its entries (node, browser, inline), over pkg/chatmark_bg.wasm. The
// boundary itself is js/engine.js; each entry initialises the wasm and calls markReady.
import { createApi } from './engine.js';

export { ChatmarkError, STYLE_CODES, version } from './engine.js';

const api = createApi({ html: true, entry: 'chatmark' });

/** Called by each entry with the wasm exports once the instance exists. @internal */
export const markReady = api.markReady;
/** The engine's own version, codes and build flavour, from the wasm. @internal */
export const about = api.about;

/**
 * Parses `text` in `mode` ('markdown', 'html' or 'plain'; absent means plain).
 * @returns {{text: string, text_styles: Array<{start: number, len: number, st: string[]}>}}
 */
export const parse = api.parse;
/** Parses the markdown dialect (spec section 2). */
export const parseMarkdown = api.parseMarkdown;
/** Parses the HTML subset (spec section 3). */
export const parseHtml = api.parseHtml;
/**
 * Normalises client runs (spec section 4); `st` may be an array or a comma string. Returns
 * `{text_styles}`, the canonical runs (with `text`, a formatted message), and `diagnostics`
 * too when `options.diagnostics`.
 */
export const normalizeStyles = api.normalizeStyles;
/**
 * Resolves a `sendMessage` body `{chat_id, text, parse_mode?, text_styles?}` (spec section 5)
 * into `{text, text_styles}`, or throws a ChatmarkError. Options: `diagnostics`,
 * `checkChatId` (default true; false as the formatting-only tools do), `maxTextLen` and
 * `maxTextStyles` (0 lifts a limit).
 */
export const resolveSendMessage = api.resolveSendMessage;
/**
 * The JSONL conformance contract for one line, as `chatmark --jsonl` answers it: the JSON
 * text of `{text, text_styles}` or `{error: {code, field, message}}`. Never throws on input.
 */
export const resolveJsonl = api.resolveJsonl;
/** Renders `{text, text_styles}` as an HTML fragment (W1); runs are normalised first. */
export const toHtml = api.toHtml;
/**
 * Renders `{text, text_styles}` as markdown (W2): `{markdown, lossless, unexpressed}`, where
 * `unexpressed` lists what markdown could not say (empty exactly when `lossless`).
 */
export const toMarkdown = api.toMarkdown;
/**
 * Splits `{text, text_styles}` into parts of at most `options.limit` UTF-16 units (default
 * 2000), each `{text, text_styles}` to send as one message (spec section 8).
 */
export const split = api.split;
/** The JSONL contract of `chatmark split --jsonl` for one line (never throws on input). */
export const splitJsonl = api.splitJsonl;
