// As the other apps' main.js (`/`: the composer; `/#inline`: chatmark/inline), for esbuild,
// which does not follow `new URL(…, import.meta.url)`: the wasm comes in through the file loader
// (`chatmark/pkg/chatmark_bg.wasm` is exported) and goes to init(), and the composer finds
// composer.css beside the bundle (the build copies it). The file loader's string is relative to
// the output directory, and index.html sits outside dist/ as a user's page does: the string is
// resolved against the bundle's own URL, not the page's (issue 51 finding 10).
import init from 'chatmark';
import wasm from 'chatmark/pkg/chatmark_bg.wasm';

if (location.hash === '#inline') {
  const { parsed } = await import('./parsed.js');
  document.getElementById('parsed').textContent = JSON.stringify(parsed);
} else {
  init(new URL(wasm, import.meta.url));
  await import('chatmark/composer');
}
