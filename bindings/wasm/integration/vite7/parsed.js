// The `chatmark/inline` import of issue 24: a bundler honouring a wrong `sideEffects` drops its
// initialisation ("chatmark is not initialised").
import { parseMarkdown } from 'chatmark/inline';

export const parsed = parseMarkdown('**bold** and {red}red{/red}');
