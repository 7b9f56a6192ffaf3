'use client';
// parseMarkdown from chatmark/inline in the browser (after hydration, so that the answer on the
// page is the browser's, not the server's).
import { parseMarkdown } from 'chatmark/inline';
import { useEffect, useState } from 'react';

export default function Inline() {
  const [parsed, setParsed] = useState('');
  useEffect(() => setParsed(JSON.stringify(parseMarkdown('**bold** and {red}red{/red}'))), []);
  return <output id="parsed">{parsed}</output>;
}
