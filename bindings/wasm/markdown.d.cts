// Types of `chatmark/markdown` for CommonJS files, as index.d.cts is for `chatmark`: the
// namespace require() gives, typed by markdown.d.ts. Every type markdown.d.ts exports is named
// below (test/types.test.mjs checks).
import type * as markdown from './markdown.js' with { 'resolution-mode': 'import' };

declare const m: typeof markdown;
declare namespace m {
  export type About = markdown.About;
  export type ChatmarkError = markdown.ChatmarkError;
  export type Diagnostic = markdown.Diagnostic;
  export type DiagnosticCode = markdown.DiagnosticCode;
  export type DiagnosticsOption = markdown.DiagnosticsOption;
  export type ErrorCode = markdown.ErrorCode;
  export type Formatted = markdown.Formatted;
  export type MarkdownParseMode = markdown.MarkdownParseMode;
  export type RawTextStyle = markdown.RawTextStyle;
  export type ResolveOptions = markdown.ResolveOptions;
  export type SendMessageBody = markdown.SendMessageBody;
  export type SplitOptions = markdown.SplitOptions;
  export type StyleCode = markdown.StyleCode;
  export type TextStyle = markdown.TextStyle;
  export type WithDiagnostics<T> = markdown.WithDiagnostics<T>;
}
export = m;
