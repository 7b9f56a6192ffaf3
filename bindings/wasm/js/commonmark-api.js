// The JS API of `chatmark/commonmark`: the CommonMark import (spec section 9), over its own
// wasm, pkg/chatmark_commonmark_bg.wasm (pulldown-cmark and the import, nothing of the other
// entries). The text crosses as a string through wasm-bindgen's glue (UTF-8; a lone
// surrogate becomes U+FFFD, L2); the runs come back as (start, len, code mask) triples.
import { from_commonmark, take_text } from '../pkg/chatmark_commonmark.js';
import { ChatmarkError, STYLE_CODES } from './engine.js';

export { ChatmarkError, STYLE_CODES, version } from './engine.js';

let ready = false;

/** Called by each entry once the wasm instance exists. @internal */
export function markReady() {
  ready = true;
}

/** The codes of a run's mask (bit k: the k-th code of the table), in table order. */
function codesOf(mask) {
  const codes = [];
  for (let k = 0; mask !== 0 && k < STYLE_CODES.length; k++, mask >>>= 1) {
    if (mask & 1) codes.push(STYLE_CODES[k]);
  }
  return codes;
}

/**
 * Imports text written for CommonMark with GitHub's tables, strikethrough and task lists (what
 * language models write) as the closest text plus canonical runs the platform can show
 * (spec section 9). No text limit is applied: split the result for sending.
 * @param {string} text
 * @returns {{text: string, text_styles: Array<{start: number, len: number, st: string[]}>}}
 */
export function fromCommonMark(text) {
  if (!ready) {
    throw new ChatmarkError(
      'not_initialized',
      '',
      'chatmark/commonmark is not initialised: `await init()` first, or import it in Node',
    );
  }
  if (typeof text !== 'string') {
    throw new ChatmarkError('invalid_text', 'text', 'text must be a string');
  }
  const words = from_commonmark(text);
  const runs = new Array(words.length / 3);
  for (let k = 0, o = 0; o + 2 < words.length; k++, o += 3) {
    runs[k] = { start: words[o], len: words[o + 1], st: codesOf(words[o + 2]) };
  }
  return { text: take_text(), text_styles: runs };
}
