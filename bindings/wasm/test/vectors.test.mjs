// Every public vector through Node: the API (resolveSendMessage without the chat_id check,
// as the JSONL tools resolve), the inline and browser entries, and chatmark/markdown's Node
// and browser entries (HTML bodies refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSendMessage, splitJsonl } from 'chatmark';
import * as inline from 'chatmark/inline';
import * as markdown from 'chatmark/markdown';
import * as web from '../js/browser.js';
import * as markdownWeb from '../js/markdown-browser.js';
import { forMarkdownEntry, judge, judgeSplit, settle, splitVectorFiles, vectorFiles } from './helpers.mjs';

// the browser entries in Node: their init() finds the instance the Node entries made
await web.default();
await markdownWeb.default();

for (const file of vectorFiles()) {
  const { vectors } = file;
  test(`vectors ${file.file} (${vectors.length}) through the Node API`, () => {
    const misses = [];
    for (const v of vectors) {
      const miss = judge(
        v,
        settle(() => resolveSendMessage(v.input, { checkChatId: false })),
      );
      if (miss) misses.push(miss);
      const viaInline = settle(() => inline.resolveSendMessage(v.input, { checkChatId: false }));
      const miss2 = judge(v, viaInline);
      if (miss2) misses.push(`inline ${miss2}`);
      const viaMarkdown = settle(() => markdown.resolveSendMessage(v.input, { checkChatId: false }));
      const miss3 = judge(forMarkdownEntry(v), viaMarkdown);
      if (miss3) misses.push(`markdown ${miss3}`);
      const viaWeb = settle(() => web.resolveSendMessage(v.input, { checkChatId: false }));
      if (judge(v, viaWeb)) misses.push(`web ${judge(v, viaWeb)}`);
      const viaMarkdownWeb = settle(() => markdownWeb.resolveSendMessage(v.input, { checkChatId: false }));
      if (judge(forMarkdownEntry(v), viaMarkdownWeb))
        misses.push(`markdown web ${judge(forMarkdownEntry(v), viaMarkdownWeb)}`);
    }
    assert.equal(misses.length, 0, misses.slice(0, 10).join('\n'));
  });
}

// The split vectors (spec section 8) through both entries' splitJsonl, which formats each
// body as the JSONL contract does (no R1 length limit) and splits it; chatmark/markdown
// refuses the HTML ones. And `split` itself on each formatted message, in every entry.
for (const file of splitVectorFiles()) {
  const { vectors } = file;
  test(`split vectors ${file.file} (${vectors.length}) through every entry (S1-S5)`, () => {
    const misses = [];
    for (const v of vectors) {
      const line = JSON.stringify(v.input);
      for (const [name, api] of [
        ['chatmark', { splitJsonl }],
        ['inline', inline],
        ['web', web],
      ]) {
        const miss = judgeSplit(v, JSON.parse(api.splitJsonl(line)));
        if (miss) misses.push(`${name} ${miss}`);
      }
      const html = String(v.input.parse_mode).toLowerCase() === 'html';
      for (const [name, api] of [
        ['markdown', markdown],
        ['markdown web', markdownWeb],
      ]) {
        const got = JSON.parse(api.splitJsonl(line));
        const miss = html
          ? got.error?.code === 'unsupported_parse_mode'
            ? null
            : `${v.id}: ${JSON.stringify(got)}`
          : judgeSplit(v, got);
        if (miss) misses.push(`${name} ${miss}`);
      }
    }
    assert.equal(misses.length, 0, misses.slice(0, 10).join('\n'));
  });
}
