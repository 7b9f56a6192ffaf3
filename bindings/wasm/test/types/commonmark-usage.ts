// A usage example of `chatmark/commonmark`, checked by `tsc --noEmit` against commonmark.d.ts.
import init, { ChatmarkError, fromCommonMark, type Formatted, type TextStyle } from 'chatmark/commonmark';
import * as cm from 'chatmark/commonmark';

await init();

const f: Formatted = fromCommonMark('## Steps\n\n1. **Install**\n2. Run `make`');
const runs: TextStyle[] = f.text_styles;
try {
  fromCommonMark('x');
} catch (e) {
  if (e instanceof ChatmarkError && e.code === 'not_initialized') console.log(e.field);
}

// @ts-expect-error: the import takes text only
fromCommonMark(42);
// @ts-expect-error: no parseMarkdown in chatmark/commonmark
cm.parseMarkdown('**x**');

console.log(runs.length, cm.version, cm.STYLE_CODES.length);
