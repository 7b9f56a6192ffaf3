// The one line a site under a strict Content-Security-Policy adds (README, "Bundlers and
// frameworks"): Vite inlines assets under 4 KiB as data: URLs, composer.css among them, which
// `style-src 'self'` refuses; this keeps it a file.
export default { build: { assetsInlineLimit: (file) => (file.endsWith('composer.css') ? false : undefined) } };
