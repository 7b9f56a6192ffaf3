// Every public vector through Node: the API (resolveSendMessage without the chat_id check,
// as the JSONL tools resolve) and the inline entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSendMessage } from 'chatmark';
import * as inline from 'chatmark/inline';
import { judge, settle, vectorFiles } from './helpers.mjs';

for (const file of vectorFiles()) {
  const { vectors } = file;
  test(`vectors ${file.file} (${vectors.length}) through the Node API`, () => {
    const misses = [];
    for (const v of vectors) {
      const miss = judge(v, settle(() => resolveSendMessage(v.input, { checkChatId: false })));
      if (miss) misses.push(miss);
      const viaInline = settle(() => inline.resolveSendMessage(v.input, { checkChatId: false }));
      const miss2 = judge(v, viaInline);
      if (miss2) misses.push(`inline ${miss2}`);
    }
    assert.equal(misses.length, 0, misses.slice(0, 10).join('\n'));
  });
}
