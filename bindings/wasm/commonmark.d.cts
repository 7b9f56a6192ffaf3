// Types of `chatmark/commonmark` for CommonJS files, as index.d.cts is for `chatmark`: the
// namespace require() gives, typed by commonmark.d.ts. Every type commonmark.d.ts exports is
// named below (test/hosts.test.mjs checks).
import type * as commonmark from './commonmark.js' with { 'resolution-mode': 'import' };

declare const m: typeof commonmark;
declare namespace m {
  export type ChatmarkError = commonmark.ChatmarkError;
  export type ErrorCode = commonmark.ErrorCode;
  export type Formatted = commonmark.Formatted;
  export type StyleCode = commonmark.StyleCode;
  export type TextStyle = commonmark.TextStyle;
}
export = m;
