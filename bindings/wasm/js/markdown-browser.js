// The browser entry of `chatmark/markdown`: `await init()` once (it fetches
// pkg/chatmark_markdown_bg.wasm beside the glue, or takes a URL, string, Response, bytes,
// WebAssembly.Module, Blob or a promise of one), then every function is synchronous.
import wbInit from '../pkg/chatmark_markdown.js';
import { initOnce, defaultWasm } from './engine.js';
import { markReady } from './markdown-api.js';

export * from './markdown-api.js';

/** Initialises the engine once; later calls return the same promise. */
const init = initOnce(wbInit, markReady, () =>
  defaultWasm(new URL('../pkg/chatmark_markdown_bg.wasm', import.meta.url)),
);
export default init;
export { init };
