// Two pages in one (with no configuration a bundler builds one entry): `/` has the composer,
// which initialises the engine itself, fetching the wasm; `/#inline` takes parseMarkdown from
// chatmark/inline, which embeds it. Apart, because the two share the wasm-bindgen glue: on one
// page, whichever initialised it would hide the other's failure.
if (location.hash === '#inline') {
  const { parsed } = await import('./parsed.js');
  document.getElementById('parsed').textContent = JSON.stringify(parsed);
} else {
  await import('chatmark/composer');
}
