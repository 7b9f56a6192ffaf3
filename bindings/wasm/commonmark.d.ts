// Types of `chatmark/commonmark`: the CommonMark import (spec section 9) in a wasm of its own.
import type { Formatted } from './index.js';

export type { ErrorCode, Formatted, StyleCode, TextStyle } from './index.js';
export { ChatmarkError, STYLE_CODES, version } from './index.js';

/**
 * Initialises the import: needed once in browsers before fromCommonMark; a resolved no-op in
 * Node, where the entry initialises at import.
 */
export default function init(
  input?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void>;
export declare function init(
  input?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void>;

/**
 * Imports text written for CommonMark with GitHub's tables, strikethrough and task lists
 * (what language models write) as the closest text plus canonical runs the platform can
 * show (spec section 9, M1–M11). No text limit is applied. Throws a ChatmarkError
 * `invalid_text` when `text` is not a string, `not_initialized` before init() in browsers.
 */
export declare function fromCommonMark(text: string): Formatted;

/**
 * Called by each entry once the wasm instance exists; exported for the package's own
 * entries, not for use.
 * @internal
 */
export declare function markReady(): void;
