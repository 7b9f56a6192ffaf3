// A Node bundle (esbuild --platform=node), run by ../run.mjs from a directory without
// node_modules: every entry works at once, and importing the composer is a no-op off the browser.
import { parseMarkdown } from 'chatmark';
import 'chatmark/composer';
import { parseMarkdown as inline } from 'chatmark/inline';
import * as markdown from 'chatmark/markdown';

const text = '**bold** and {red}red{/red}';
console.log(JSON.stringify([parseMarkdown(text), markdown.parseMarkdown(text), inline(text)]));
