// Types of the npm package `chatmark`, for its entries `chatmark` (Node and browsers) and
// `chatmark/inline`; `chatmark/markdown` has markdown.d.ts, a subset. Hand-written: the wasm
// exports take and return only numbers, which the JS wrapper hides.

/** A style code of the closed set (spec 1.1). */
export type StyleCode =
  | 'b' | 'i' | 'u' | 's'
  | 'f_13' | 'f_15' | 'f_18' | 'f_20'
  | 'c_050a19' | 'c_15a85f' | 'c_f7b503' | 'c_f27806' | 'c_db342e'
  | 'lst_1' | 'lst_2'
  | 'ind_1' | 'ind_2' | 'ind_3' | 'ind_4' | 'ind_5';

/** A canonical run: `len` UTF-16 units (JS string indices) from `start`. */
export interface TextStyle {
  start: number;
  len: number;
  st: StyleCode[];
}

/** A formatted message, spreadable into a `sendMessage` body. */
export interface Formatted {
  text: string;
  text_styles: TextStyle[];
}

/** A client run as sent: lenient, normalised by the engine (spec section 4). */
export interface RawTextStyle {
  start?: unknown;
  len?: unknown;
  /** An array of codes or a comma-separated string; unknown codes are ignored. */
  st?: string[] | string | unknown;
}

/** What a parse mode is called; `plain` is the absence of `parse_mode`. */
export type ParseMode = 'markdown' | 'html' | 'plain';

export type DiagnosticCode =
  | 'unclosed_tag'
  | 'unmatched_closing_tag'
  | 'unknown_style_code'
  | 'run_adjusted'
  | 'run_dropped'
  | 'text_styles_ignored'
  | 'unsupported_element';

/** A note on what the engine changed or ignored, in UTF-16 units of the input (L3). */
export interface Diagnostic {
  code: DiagnosticCode;
  start: number;
  len: number;
  message: string;
}

export interface DiagnosticsOption {
  /** Add a `diagnostics` array to the result. */
  diagnostics?: boolean;
}

export type WithDiagnostics<T> = T & { diagnostics: Diagnostic[] };

export type ErrorCode =
  | 'missing_chat_id'
  | 'missing_text'
  | 'invalid_text'
  | 'text_empty'
  | 'text_too_long'
  | 'invalid_parse_mode'
  /** `chatmark/markdown` only: an HTML body or `parse(text, 'html')`; use `chatmark`. */
  | 'unsupported_parse_mode'
  | 'invalid_text_styles'
  | 'too_many_text_styles'
  | 'empty_after_formatting'
  | 'invalid_json'
  | 'invalid_options'
  | 'not_initialized'
  | 'internal_error';

/** A refused message or a bad argument (R7). */
export declare class ChatmarkError extends Error {
  readonly name: 'ChatmarkError';
  /** The stable code. */
  readonly code: ErrorCode;
  /** The body field concerned (`text`, `parse_mode`, …). */
  readonly field: string;
  /** The wire shape. */
  toJSON(): { code: ErrorCode; field: string; message: string };
}

/** A `sendMessage` body as a server receives it. */
export interface SendMessageBody {
  chat_id?: string | number | bigint | null;
  text?: string | null;
  parse_mode?: string | null;
  text_styles?: RawTextStyle[] | null;
  [other: string]: unknown;
}

export interface ResolveOptions extends DiagnosticsOption {
  /** Check `chat_id` (R5); default true. False resolves only the formatting. */
  checkChatId?: boolean;
  /** Most UTF-16 units of raw text (R1); default 2000, 0 for none. */
  maxTextLen?: number;
  /** Most `text_styles` entries (R6); default 10000, 0 for none. */
  maxTextStyles?: number;
}

/** One thing `toMarkdown` could not express: `len` UTF-16 units of the message from `start`. */
export interface Unexpressed {
  start: number;
  len: number;
  /** What was lost: a code with no markdown spelling, leading spaces, partial line codes, … */
  what: 'code' | 'leading_spaces' | 'partial_line_codes' | 'placement' | 'text';
  /** The code, when `what` is `code`. */
  code?: StyleCode;
}

/** What `toMarkdown` answers (W2). */
export interface Markdown {
  markdown: string;
  /** True when `parseMarkdown(markdown)` gives the input back. */
  lossless: boolean;
  /** What markdown could not express; empty exactly when lossless. */
  unexpressed: Unexpressed[];
}

/** The package (and engine) version. */
export declare const version: string;
/** The 20 style codes, in table order. */
export declare const STYLE_CODES: readonly StyleCode[];

/**
 * Initialises the engine: needed once in browsers (default entry) before any other call;
 * a resolved no-op in Node and `chatmark/inline`, which initialise at import.
 */
export default function init(
  input?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void>;
export declare function init(
  input?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void>;

/** Parses `text` in `mode` (absent: plain). Throws `invalid_parse_mode` on another mode. */
export declare function parse(text: string, mode?: ParseMode | Uppercase<ParseMode> | null): Formatted;
export declare function parse(
  text: string,
  mode: ParseMode | Uppercase<ParseMode> | null | undefined,
  options: DiagnosticsOption & { diagnostics: true },
): WithDiagnostics<Formatted>;
export declare function parse(
  text: string,
  mode?: ParseMode | Uppercase<ParseMode> | null,
  options?: DiagnosticsOption,
): Formatted | WithDiagnostics<Formatted>;

/** Parses the markdown dialect (spec section 2). */
export declare function parseMarkdown(text: string): Formatted;
export declare function parseMarkdown(text: string, options: { diagnostics: true }): WithDiagnostics<Formatted>;
export declare function parseMarkdown(text: string, options?: DiagnosticsOption): Formatted | WithDiagnostics<Formatted>;

/** Parses the HTML subset (spec section 3). */
export declare function parseHtml(text: string): Formatted;
export declare function parseHtml(text: string, options: { diagnostics: true }): WithDiagnostics<Formatted>;
export declare function parseHtml(text: string, options?: DiagnosticsOption): Formatted | WithDiagnostics<Formatted>;

/** Normalises client runs (spec section 4) into canonical runs. */
export declare function normalizeStyles(text: string, styles: readonly RawTextStyle[]): TextStyle[];
export declare function normalizeStyles(
  text: string,
  styles: readonly RawTextStyle[],
  options: { diagnostics: true },
): { text_styles: TextStyle[]; diagnostics: Diagnostic[] };

/** Resolves a `sendMessage` body (spec section 5); throws a ChatmarkError when refused. */
export declare function resolveSendMessage(body: SendMessageBody, options?: ResolveOptions & { diagnostics?: false }): Formatted;
export declare function resolveSendMessage(
  body: SendMessageBody,
  options: ResolveOptions & { diagnostics: true },
): WithDiagnostics<Formatted>;

/** The JSONL contract for one line, as `chatmark --jsonl`: a result or `{"error":…}` as JSON text. */
export declare function resolveJsonl(line: string): string;

/** Renders a formatted message as an HTML fragment (W1). */
export declare function toHtml(formatted: Formatted): string;
/** Renders a formatted message as markdown, reporting what it could not express (W2). */
export declare function toMarkdown(formatted: Formatted): Markdown;
