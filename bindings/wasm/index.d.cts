// Types of `chatmark` and `chatmark/inline` for CommonJS files (`.cts`, or `.ts` in a package
// without "type": "module", under `module: node16` or `nodenext`): require() of the package
// (Node 20.19, 22.12 and later) gives its ES module namespace, typed here by index.d.ts's own
// declarations. Every type index.d.ts exports is named below (test/types.test.mjs checks).
import type * as chatmark from './index.js' with { 'resolution-mode': 'import' };

declare const m: typeof chatmark;
declare namespace m {
  export type About = chatmark.About;
  export type ChatmarkError = chatmark.ChatmarkError;
  export type Diagnostic = chatmark.Diagnostic;
  export type DiagnosticCode = chatmark.DiagnosticCode;
  export type DiagnosticsOption = chatmark.DiagnosticsOption;
  export type ErrorCode = chatmark.ErrorCode;
  export type Formatted = chatmark.Formatted;
  export type Markdown = chatmark.Markdown;
  export type ParseMode = chatmark.ParseMode;
  export type RawTextStyle = chatmark.RawTextStyle;
  export type ResolveOptions = chatmark.ResolveOptions;
  export type SendMessageBody = chatmark.SendMessageBody;
  export type SplitOptions = chatmark.SplitOptions;
  export type StyleCode = chatmark.StyleCode;
  export type TextStyle = chatmark.TextStyle;
  export type Unexpressed = chatmark.Unexpressed;
  export type WithDiagnostics<T> = chatmark.WithDiagnostics<T>;
}
export = m;
