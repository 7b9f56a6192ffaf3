// Types of `chatmark/markdown`: markdown and plain parsing, normalisation, resolution of
// markdown and plain bodies, and HTML rendering, in a smaller wasm without HTML mode. An HTML
// body or `parse(text, 'html')` throws a ChatmarkError `unsupported_parse_mode`.
import type { DiagnosticsOption, Formatted, ParseMode, WithDiagnostics } from './index.js';

export type {
  About, Diagnostic, DiagnosticCode, DiagnosticsOption, ErrorCode, Formatted, RawTextStyle,
  ResolveOptions, SendMessageBody, SplitOptions, StyleCode, TextStyle, WithDiagnostics,
} from './index.js';
export {
  ChatmarkError, STYLE_CODES, about, default, init, markReady, normalizeStyles, parseMarkdown,
  resolveSendMessage, split, splitJsonl, toHtml, version,
} from './index.js';

/** What `chatmark/markdown` parses; `plain` is the absence of `parse_mode`. */
export type MarkdownParseMode = Exclude<ParseMode, 'html'>;

/** Parses `text` in `mode` (absent: plain). Throws `unsupported_parse_mode` for `html`. */
export declare function parse(text: string, mode?: MarkdownParseMode | Uppercase<MarkdownParseMode> | null): Formatted;
export declare function parse(
  text: string,
  mode: MarkdownParseMode | Uppercase<MarkdownParseMode> | null | undefined,
  options: DiagnosticsOption & { diagnostics: true },
): WithDiagnostics<Formatted>;
export declare function parse(
  text: string,
  mode?: MarkdownParseMode | Uppercase<MarkdownParseMode> | null,
  options?: DiagnosticsOption,
): Formatted | WithDiagnostics<Formatted>;
