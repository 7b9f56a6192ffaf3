// Types of `chatmark/composer`: the <chatmark-composer> element. Importing the entry defines the
// element unless one of that name is already defined; off the browser (server-side rendering)
// it defines nothing.
import type { Formatted, Markdown, SplitOptions } from './index.js';

/** What the composer needs of an engine: the browser entry, `chatmark/inline`, or the like. */
export interface ComposerEngine {
  /** Awaited once before first use, when present (the browser entry's `init`). */
  init?: () => Promise<void>;
  default?: () => Promise<void>;
  parseHtml(text: string): Formatted;
  parseMarkdown(text: string): Formatted;
  toHtml(formatted: Formatted): string;
  toMarkdown(formatted: Formatted): Markdown;
  /**
   * Cuts a long message into sendable parts (spec section 8): counts the messages an
   * over-limit value makes, and gives `split-long`'s parts. Without it the composer says no
   * count and `split-long` cannot send over the limit.
   */
  split?(formatted: Formatted, options?: SplitOptions): Formatted[];
}

/**
 * The `send` event's detail: the message (`text` and `text_styles`, without trailing
 * whitespace), and with `split-long` its parts.
 */
export interface ComposerSendDetail extends Formatted {
  /**
   * With `split-long` (and an engine with `split`: every entry of the package), always then:
   * the message cut into parts of at most `maxLength` UTF-16 units (spec section 8), in the
   * order to send them; one part, equal to the message, when it fits. Send each as its own
   * `sendMessage`.
   */
  parts?: Formatted[];
}

export interface ChatmarkComposerEventMap extends Omit<HTMLElementEventMap, 'input'> {
  /**
   * Before the user changes the message (bubbles, composed): cancel it and the change does not
   * happen. `inputType` and `data` as a text box's (`insertText`, `insertParagraph`,
   * `deleteContentBackward`, `insertFromPaste`, `historyUndo`…).
   */
  beforeinput: InputEvent;
  /**
   * The user (or `insertText`) changed the message (bubbles, composed); `inputType` and `data`
   * say how (`inputType` is empty for a toolbar format). Not fired when `value` is set.
   */
  input: InputEvent;
  /**
   * Ctrl/Cmd+Enter or the send button: `detail` is the value (with `split-long`, and its
   * `parts`). Cancel it to keep the text.
   */
  send: CustomEvent<ComposerSendDetail>;
  /**
   * The engine could not start (a Content-Security-Policy without `'wasm-unsafe-eval'`, the wasm
   * not found): `error` is why. The element then shows it, stays read-only and gets the
   * `error` attribute; `ready` rejects.
   */
  error: ErrorEvent;
}

/**
 * A message composer: WYSIWYG (a contenteditable whose content is always `toHtml(value)`) or
 * markdown source with a live preview; toolbar, shortcuts (Ctrl/Cmd+B, I, U, Shift+X, Z, Y, Enter),
 * paste cleaned by `parseHtml` (plain-text CommonMark offered formatted by "Paste as formatted",
 * `chatmark/commonmark` imported on such a paste), a counter of UTF-16 units left. Attributes:
 * `mode` (`wysiwyg` | `markdown`), `maxlength` (or `max-length`; default 2000), `placeholder`,
 * `enter-sends`, `split-long`, `theme`, `autoformat`, and as a form control `name`,
 * `required`, `disabled`, `readonly`. Styles live in a shadow root (`composer.css` beside the
 * module): light or dark by the page's `color-scheme` (or `theme`), themable by `--cm-*` custom
 * properties (colours not given derive from `--cm-bg`) and parts (`box`, `toolbar`, `editor`,
 * `source`, `preview`, `footer`, `convert`, `send`).
 *
 * @example
 * import 'chatmark/composer';
 * const c = document.querySelector('chatmark-composer')!;
 * c.addEventListener('send', (e) => post({ chat_id: 1, ...e.detail }));
 */
export declare class ChatmarkComposer extends HTMLElement {
  /** The engine of elements without their own: the browser entry, initialised on first use. */
  static engine: ComposerEngine;
  /** This element's engine, when set before it is connected. */
  engine?: ComposerEngine;
  /**
   * Resolves once the engine is initialised, the stylesheet loaded and the content shown;
   * rejects when the engine cannot start (see the `error` event).
   */
  readonly ready: Promise<void>;
  /**
   * The message, canonical (CR and CR LF read as LF, NUL as U+FFFD); `send` sends it without
   * its trailing whitespace. Setting it renders it (`toHtml`; runs are normalised, and a value
   * `toHtml` refuses throws its `ChatmarkError`), puts the caret at the end and clears the undo
   * history (`insertText` keeps both); a string (`''` included) is plain text.
   */
  get value(): Formatted;
  set value(value: Formatted | string);
  /** `wysiwyg` (default) or `markdown`; reflects the attribute. Switching keeps the message. */
  mode: 'wysiwyg' | 'markdown';
  /**
   * Most UTF-16 units of `value.text`: the attribute `maxlength` (or `max-length`), default
   * 2000. Longer is `over`: not sent, and invalid in a form (`validity.tooLong`), unless
   * `splitLong`.
   */
  maxLength: number;
  /** Shown while the message is empty (attribute `placeholder`). */
  placeholder: string;
  /**
   * Whether Enter sends the message, Shift+Enter then starting a new line (boolean attribute
   * `enter-sends`); Ctrl+Enter always sends.
   */
  enterSends: boolean;
  /**
   * Whether a message over `maxLength` is sent as several (boolean attribute `split-long`):
   * Send stays enabled over the limit, the `send` event's `detail.parts` holds the parts in
   * order (always, one part when it fits), and the value stays valid in a form (which
   * submits it whole: split it on the server). Without it, a message over is refused.
   *
   * @example
   * composer.splitLong = true;
   * composer.addEventListener('send', (e) => e.detail.parts?.forEach((part) => post({ chat_id: 1, ...part })));
   */
  splitLong: boolean;
  /**
   * True while `value.text` is longer than `maxLength` (the status then says how many messages
   * it makes); `send` is refused then, unless `splitLong`.
   */
  readonly over: boolean;
  /**
   * Whether there is a message to send: not blank (whitespace only), not over (unless
   * `splitLong`), the element neither disabled nor read-only.
   */
  readonly sendable: boolean;

  // A form control (form-associated, through ElementInternals). With `name`, a form submits
  // the text under `name` and the runs as JSON under `${name}_styles`: name="text" gives the
  // `text` and `text_styles` fields of sendMessage.

  /** The form field's name (attribute `name`); without one nothing is submitted. */
  name: string;
  /** Not editable, not focusable, not submitted (attribute `disabled`; a disabled fieldset too). */
  disabled: boolean;
  /** Focusable and selectable, not editable, not validated (attribute `readonly`). */
  readOnly: boolean;
  /** A blank message is invalid (`validity.valueMissing`; attribute `required`). */
  required: boolean;
  /** What the form's `reset()` puts back (empty unless set). */
  defaultValue: Formatted | string;
  readonly form: HTMLFormElement | null;
  readonly labels: NodeList;
  /** `valueMissing` (required and blank) and `tooLong` (over `maxLength`, unless `splitLong`). */
  readonly validity: ValidityState;
  readonly validationMessage: string;
  readonly willValidate: boolean;
  checkValidity(): boolean;
  reportValidity(): boolean;
  /**
   * Selects UTF-16 units `[start, end)` of the text (of the source in markdown mode); a
   * boundary inside a character (a surrogate pair, an emoji sequence) moves outward.
   */
  setSelectionRange(start: number, end?: number): void;
  /** Where the selection starts, in UTF-16 units of `value.text` (of the source in markdown mode). */
  selectionStart: number;
  /** Where the selection ends (the caret when it is collapsed). */
  selectionEnd: number;
  /**
   * Replaces the selection with `text` as one undo step, the caret after it: in the codes
   * `styles` when given (`['b']`; unknown codes are ignored), else in the look typing would
   * give it. Fires `input` (`insertText`). For mentions and emoji pickers: unlike setting
   * `value`, it keeps the caret and the undo history.
   *
   * @example
   * composer.setSelectionRange(at, composer.selectionEnd); // the typed `@sa`
   * composer.insertText('@sam ', []);
   */
  insertText(text: string, styles?: readonly string[]): void;
  /**
   * Dispatches `send` unless the message is empty or too long without `splitLong` (then
   * answers false); clears the composer unless a listener cancels the event.
   */
  send(): boolean;
  addEventListener<K extends keyof ChatmarkComposerEventMap>(
    type: K,
    listener: (this: ChatmarkComposer, ev: ChatmarkComposerEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof ChatmarkComposerEventMap>(
    type: K,
    listener: (this: ChatmarkComposer, ev: ChatmarkComposerEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** The element's attributes, as JSX writes them. */
export interface ChatmarkComposerAttributes {
  mode?: 'wysiwyg' | 'markdown';
  maxlength?: number | string;
  'max-length'?: number | string;
  placeholder?: string;
  name?: string;
  disabled?: boolean;
  readonly?: boolean;
  required?: boolean;
  'enter-sends'?: boolean;
  /** A message over the limit is sent as parts (`detail.parts` of `send`). */
  'split-long'?: boolean;
  /** Light or dark: by default the page's `color-scheme`; `auto` follows the OS. */
  theme?: 'light' | 'dark' | 'auto';
  /**
   * `off`: markdown typed in the editor stays text (no live `**bold**`, `- ` lists…), and pasted
   * markdown is not offered formatted.
   */
  autoformat?: 'on' | 'off';
}

declare global {
  interface HTMLElementTagNameMap {
    'chatmark-composer': ChatmarkComposer;
  }
}

// <chatmark-composer> in React's JSX (TSX), wherever React's types are installed; elsewhere the
// augmentation has no module to augment, and the @ts-ignore comments keep that silent.
// @ts-ignore: no 'react' without React's types
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      // @ts-ignore: no DetailedHTMLProps without React's types
      'chatmark-composer': DetailedHTMLProps<HTMLAttributes<ChatmarkComposer>, ChatmarkComposer> &
        ChatmarkComposerAttributes;
    }
  }
}
