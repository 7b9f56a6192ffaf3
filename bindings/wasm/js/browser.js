// The default (browser) entry of `chatmark`: `await init()` once (it fetches
// pkg/chatmark_bg.wasm beside the glue, or takes a URL, Response, bytes or
// WebAssembly.Module), then every function is synchronous.
import wbInit from '../pkg/chatmark.js';
import { markReady } from './api.js';

export * from './api.js';

let pending;

/** Initialises the engine once; later calls return the same promise. */
export default function init(input) {
  if (!pending) {
    pending = wbInit(input === undefined ? undefined : { module_or_path: input }).then(markReady);
    pending.catch(() => {
      pending = undefined; // a failed fetch may be retried
    });
  }
  return pending;
}
export { init };
