// A CommonJS usage example (index.d.cts, markdown.d.cts), checked by `tsc --noEmit` (npm run
// typecheck, module nodenext) as the package's ESM examples are.
import init, { about, ChatmarkError, parseMarkdown, type Formatted, type StyleCode, type WithDiagnostics } from 'chatmark';
import { parseMarkdown as inline } from 'chatmark/inline';
import markdown = require('chatmark/markdown');

const f: Formatted = parseMarkdown('**a**');
const g: WithDiagnostics<Formatted> = inline('*b*', { diagnostics: true });
const m: markdown.Formatted = markdown.parse('x', 'markdown');
const mode: markdown.MarkdownParseMode = 'plain';
const codes: StyleCode[] = about().codes;
const html: boolean = markdown.about().html;
init().then(() => console.log(f, g, m, mode, codes, html));
try {
  markdown.resolveSendMessage({ chat_id: 1, text: '<b>x</b>', parse_mode: 'html' });
} catch (e) {
  if (e instanceof ChatmarkError) console.log(e.code satisfies ChatmarkError['code']);
}
