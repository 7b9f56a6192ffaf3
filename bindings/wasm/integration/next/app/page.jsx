// A server component: parseMarkdown from the Node entry while rendering, and the composer, a
// client component (whose module Next.js also runs on the server to prerender it).
import { parseMarkdown } from 'chatmark';
import Composer from './composer.jsx';

export default function Page() {
  return (
    <main>
      <pre id="server">{parseMarkdown('**bold** and {red}red{/red}').text}</pre>
      <Composer />
    </main>
  );
}
