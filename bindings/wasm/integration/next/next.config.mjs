// Only for this repository's layout: the app sits below bindings/wasm, whose own lockfile would
// otherwise make Next.js take bindings/wasm for the workspace root. An app of its own needs no
// next.config for chatmark.
export default { turbopack: { root: import.meta.dirname } };
