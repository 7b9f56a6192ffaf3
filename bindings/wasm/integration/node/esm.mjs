// Node, ESM: every entry is ready at import; the composer is a no-op off the browser (SSR).
import init, { about, parseMarkdown } from 'chatmark';
import 'chatmark/composer';
import { parseMarkdown as inline } from 'chatmark/inline';
import * as markdown from 'chatmark/markdown';

await init();
const text = '**bold** and {red}red{/red}';
console.log(JSON.stringify([parseMarkdown(text), markdown.parseMarkdown(text), inline(text), about().version]));
