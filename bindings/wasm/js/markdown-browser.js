// The browser entry of `chatmark/markdown`: `await init()` once (it fetches
// pkg/chatmark_markdown_bg.wasm beside the glue, or takes a URL, Response, bytes or
// WebAssembly.Module), then every function is synchronous.
import wbInit from '../pkg/chatmark_markdown.js';
import { markReady } from './markdown-api.js';

export * from './markdown-api.js';

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
