// The Node entry of `chatmark`: the wasm comes as base64 in a module beside the glue (no file is
// read, so bundles made for Node work wherever they run) and is instantiated synchronously at
// import, so every function is usable at once.
import { Buffer } from 'node:buffer';
import b64 from '../pkg/chatmark_base64.js';
import { initSync } from '../pkg/chatmark.js';
import { markReady } from './api.js';

markReady(initSync({ module: Buffer.from(b64, 'base64') }), { Buffer });

export * from './api.js';

/** Already initialised at import; kept so that code shared with browsers can `await init()`. */
export default function init() {
  return Promise.resolve();
}
export { init };
