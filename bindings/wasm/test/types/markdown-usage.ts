// A usage example of `chatmark/markdown`, checked by `tsc --noEmit` against markdown.d.ts.
import init, {
  ChatmarkError, normalizeStyles, parse, parseMarkdown, resolveSendMessage, split, toHtml,
  type Formatted, type TextStyle,
} from 'chatmark/markdown';
import * as md from 'chatmark/markdown';

await init();

const f: Formatted = parseMarkdown('**Hello** {red}world{/red}');
const p: Formatted = parse('x', 'PLAIN');
const d = parse('x', 'markdown', { diagnostics: true });
const runs: TextStyle[] = normalizeStyles('abc', [{ start: 0, len: 2, st: 'b, i' }]).text_styles;
const html: string = toHtml(f);
try {
  resolveSendMessage({ chat_id: 1, text: '<b>x</b>', parse_mode: 'html' });
} catch (e) {
  if (e instanceof ChatmarkError && e.code === 'unsupported_parse_mode') console.log(e.field);
}

const parts: Formatted[] = split(f, { limit: 100 });
console.log(parts.length);

// @ts-expect-error: no HTML mode in chatmark/markdown
parse('<b>x</b>', 'html');
// @ts-expect-error: no parseHtml in chatmark/markdown
md.parseHtml('<b>x</b>');
// @ts-expect-error: no toMarkdown in chatmark/markdown
md.toMarkdown(f);

console.log(p, d.diagnostics.length, runs, html, md.version);
