// A CommonJS file under `module: node16`, compiled and run by ../run.mjs (require() of the
// package needs Node 20.19, 22.12 or later).
import init, { about, parseMarkdown } from 'chatmark';
import { parseMarkdown as inline } from 'chatmark/inline';
import * as markdown from 'chatmark/markdown';

const text = '**bold** and {red}red{/red}';
init().then(() => {
  console.log(JSON.stringify([parseMarkdown(text), markdown.parseMarkdown(text), inline(text), about().version]));
});
