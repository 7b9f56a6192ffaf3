// A usage example checked by `tsc --noEmit` (npm run typecheck) against index.d.ts.
import init, {
  ChatmarkError, STYLE_CODES, about, normalizeStyles, parse, parseHtml, parseMarkdown,
  resolveSendMessage, split, toHtml, toMarkdown, version,
  type Formatted, type SplitOptions, type StyleCode, type TextStyle,
} from 'chatmark';
import * as inline from 'chatmark/inline';

await init();

const f: Formatted = parseMarkdown('**Hello** {red}world{/red}');
const first: StyleCode | undefined = f.text_styles[0]?.st[0];
const codes: readonly StyleCode[] = STYLE_CODES;
const body = { chat_id: 42, ...f };
const stored: Formatted = resolveSendMessage(body);
const withNotes = resolveSendMessage({ text: '<b>x</b>', parse_mode: 'html' }, { checkChatId: false, diagnostics: true });
const note: string = withNotes.diagnostics.map((d) => `${d.code}@${d.start}`).join();
const runs: TextStyle[] = normalizeStyles('abc', [{ start: 0, len: 2, st: 'b, i' }, { start: 1, len: 1, st: ['u'] }]).text_styles;
const fromRuns: Formatted = { text: 'abc', ...normalizeStyles('abc', runs) };
const normalized = normalizeStyles('abc', [], { diagnostics: true });
const n: number = normalized.diagnostics.length + runs.length;
const h: Formatted = parseHtml('<i>x</i>');
const p = parse('x', 'markdown', { diagnostics: true });
const html: string = toHtml(p);
const md = toMarkdown(h);
const lossless: boolean = md.lossless && md.unexpressed.every((u) => u.what !== 'code' || u.code !== 'f_13');
const v: string = version + inline.version + about().version;
const hasHtml: boolean = about().html && about().codes.length === STYLE_CODES.length;

try {
  resolveSendMessage({ chat_id: 1, text: '' });
} catch (e) {
  if (e instanceof ChatmarkError) {
    const code: 'text_empty' | string = e.code;
    console.log(code, e.field, e.message);
  }
}

// the bot-side recipe: split, then send each part with its runs (spec section 8)
const options: SplitOptions = { limit: 2000 };
for (const part of split(parseMarkdown('**long** text'), options)) {
  const message: Formatted = part;
  resolveSendMessage({ chat_id: 42, text: message.text, text_styles: message.text_styles });
}
split({ text: 'client runs', text_styles: [{ start: 0, len: 6, st: 'b' }] });
// @ts-expect-error: the limit is a number
split(f, { limit: '2000' });

// @ts-expect-error: not a style code
const bad: StyleCode = 'bold';
// @ts-expect-error: text must be a string
parseMarkdown(5);

console.log(first, codes, stored, note, n, html, lossless, v, hasHtml, bad);
