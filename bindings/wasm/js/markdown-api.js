// The JS API of `chatmark/markdown`: markdown and plain parsing, normalisation, resolution of
// markdown and plain bodies, and HTML rendering, over pkg/chatmark_markdown_bg.wasm (built
// without HTML mode, so without the HTML tokenizer, the entity table and the markdown
// renderer). An HTML body or `parse(text, 'html')` throws `unsupported_parse_mode`.
import { createApi } from './engine.js';

export { ChatmarkError, STYLE_CODES, version } from './engine.js';

const api = createApi({ html: false, entry: 'chatmark/markdown' });

/** Called by each entry with the wasm exports once the instance exists. @internal */
export const markReady = api.markReady;
/** The engine's own version, codes and build flavour, from the wasm. @internal */
export const about = api.about;

/** Parses `text` in `mode` ('markdown' or 'plain'; absent means plain; 'html' is refused). */
export const parse = api.parse;
/** Parses the markdown dialect (spec section 2). */
export const parseMarkdown = api.parseMarkdown;
/** Normalises client runs (spec section 4), as `chatmark`'s normalizeStyles. */
export const normalizeStyles = api.normalizeStyles;
/** Resolves a markdown or plain `sendMessage` body (spec section 5); HTML bodies are refused. */
export const resolveSendMessage = api.resolveSendMessage;
/** Renders `{text, text_styles}` as an HTML fragment (W1); runs are normalised first. */
export const toHtml = api.toHtml;
/**
 * Splits `{text, text_styles}` into parts of at most `options.limit` UTF-16 units (default
 * 2000), each `{text, text_styles}` to send as one message (spec section 8).
 */
export const split = api.split;
/** The JSONL contract of `chatmark split --jsonl` for one line (never throws on input). */
export const splitJsonl = api.splitJsonl;
