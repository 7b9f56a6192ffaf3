// Node, CommonJS: require() of the ES module package (Node 20.19, 22.12 and later).
const { about, parseMarkdown } = require('chatmark');
require('chatmark/composer');
const inline = require('chatmark/inline');
const markdown = require('chatmark/markdown');

const text = '**bold** and {red}red{/red}';
console.log(
  JSON.stringify([parseMarkdown(text), markdown.parseMarkdown(text), inline.parseMarkdown(text), about().version]),
);
