// Types of `chatmark/inline`: the API of `chatmark` (index.d.ts), ready at import. A file of its
// own beside package.json for TypeScript's `moduleResolution: node`, which reads no `exports`.
export * from './index.js';
export { default } from './index.js';
