// Every public vector through Node: the API (resolveSendMessage without the chat_id check,
// as the JSONL tools resolve), the inline and browser entries, and chatmark/markdown's Node
// and browser entries (HTML bodies refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSendMessage } from 'chatmark';
import * as inline from 'chatmark/inline';
import * as markdown from 'chatmark/markdown';
import * as web from '../js/browser.js';
import * as markdownWeb from '../js/markdown-browser.js';
import { forMarkdownEntry, judge, settle, vectorFiles } from './helpers.mjs';

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
