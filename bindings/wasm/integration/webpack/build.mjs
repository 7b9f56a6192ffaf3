// `webpack --mode production` through webpack's Node API (no webpack-cli to install): the
// defaults, main.js to dist/main.js.
import webpack from 'webpack';

const stats = await new Promise((done, fail) =>
  webpack(
    { mode: 'production', entry: './main.js', output: { path: new URL('dist', import.meta.url).pathname } },
    (e, s) => (e ? fail(e) : done(s)),
  ),
);
console.log(stats.toString({ colors: false, modules: false }));
if (stats.hasErrors()) process.exit(1);
