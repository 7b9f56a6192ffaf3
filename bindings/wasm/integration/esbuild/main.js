// As the other apps' main.js (`/`: the composer; `/#inline`: chatmark/inline), for esbuild,
// which does not follow `new URL(…, import.meta.url)`: the wasm comes in through the file loader
// (`chatmark/pkg/chatmark_bg.wasm` is exported) and goes to init(), and the composer finds
// composer.css beside the bundle (the build copies it).
import init from 'chatmark';
import wasm from 'chatmark/pkg/chatmark_bg.wasm';

if (location.hash === '#inline') {
  const { parsed } = await import('./parsed.js');
  document.getElementById('parsed').textContent = JSON.stringify(parsed);
} else {
  init(wasm);
  await import('chatmark/composer');
}
