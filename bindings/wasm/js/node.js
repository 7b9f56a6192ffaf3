// The Node entry of `chatmark`: reads the .wasm next to it and initialises synchronously at
// import, so every function is usable at once.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { initSync } from '../pkg/chatmark.js';
import { markReady } from './api.js';

markReady(initSync({ module: readFileSync(new URL('../pkg/chatmark_bg.wasm', import.meta.url)) }), { Buffer });

export * from './api.js';

/** Already initialised at import; kept so that code shared with browsers can `await init()`. */
export default function init() {
  return Promise.resolve();
}
export { init };
