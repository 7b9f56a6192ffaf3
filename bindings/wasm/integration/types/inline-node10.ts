// chatmark/inline under `moduleResolution: node` (node10: no `exports`), TypeScript 5.x.
import { parseMarkdown, type TextStyle } from 'chatmark/inline';
import { parse } from 'chatmark/markdown';

export const runs: TextStyle[] = parseMarkdown('**bold**').text_styles;
export const plain: string = parse('x').text;
