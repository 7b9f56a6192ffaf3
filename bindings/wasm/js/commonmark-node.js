// The Node entry of `chatmark/commonmark`: its wasm as base64 (no file read, so it works
// bundled), instantiated at import.
import { Buffer } from 'node:buffer';
import b64 from '../pkg/chatmark_commonmark_base64.js';
import { initSync } from '../pkg/chatmark_commonmark.js';
import { markReady } from './commonmark-api.js';

initSync({ module: Buffer.from(b64, 'base64') });
markReady();

export * from './commonmark-api.js';

/** Already initialised at import; kept so that code shared with browsers can `await init()`. */
export default function init() {
  return Promise.resolve();
}
export { init };
