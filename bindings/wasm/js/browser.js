// The default (browser) entry of `chatmark`: `await init()` once (it fetches
// pkg/chatmark_bg.wasm beside the glue, or takes a URL, Response, bytes or
// WebAssembly.Module), then every function is synchronous.
import wbInit from '../pkg/chatmark.js';
import { initOnce } from './engine.js';
import { markReady } from './api.js';

export * from './api.js';

/** Initialises the engine once; later calls return the same promise. */
const init = initOnce(wbInit, markReady);
export default init;
export { init };
