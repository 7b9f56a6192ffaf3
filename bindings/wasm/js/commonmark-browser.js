// The browser entry of `chatmark/commonmark`: `await init()` once (it fetches
// pkg/chatmark_commonmark_bg.wasm beside the glue, or takes a URL, string, Response, bytes,
// WebAssembly.Module, Blob or a promise of one), then fromCommonMark is synchronous.
import wbInit from '../pkg/chatmark_commonmark.js';
import { markReady } from './commonmark-api.js';
import { defaultWasm, initOnce } from './engine.js';

export * from './commonmark-api.js';

/** Initialises the import once; later calls return the same promise. */
const init = initOnce(wbInit, markReady, () =>
  defaultWasm(new URL('../pkg/chatmark_commonmark_bg.wasm', import.meta.url)),
);
export default init;
export { init };
