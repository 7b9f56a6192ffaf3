// The default (browser) entry of `chatmark`: `await init()` once (it fetches
// pkg/chatmark_bg.wasm beside the glue, or takes a URL, string, Response, bytes,
// WebAssembly.Module, Blob or a promise of one), then every function is synchronous.
import wbInit from '../pkg/chatmark.js';
import { markReady } from './api.js';
import { initOnce, defaultWasm } from './engine.js';

export * from './api.js';

/** Initialises the engine once; later calls return the same promise. */
const init = initOnce(wbInit, markReady, () => defaultWasm(new URL('../pkg/chatmark_bg.wasm', import.meta.url)));
export default init;
export { init };
