// The Node entry of `chatmark/markdown`: reads its .wasm and initialises at import.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { initSync } from '../pkg/chatmark_markdown.js';
import { markReady } from './markdown-api.js';

markReady(initSync({ module: readFileSync(new URL('../pkg/chatmark_markdown_bg.wasm', import.meta.url)) }), { Buffer });

export * from './markdown-api.js';

/** Already initialised at import; kept so that code shared with browsers can `await init()`. */
export default function init() {
  return Promise.resolve();
}
export { init };
