// A React component with the composer, typed as a Vite or Next.js project types it (the
// README's example).
import { about, type Formatted, parseMarkdown } from 'chatmark';
import 'chatmark/composer';
import type { ChatmarkComposer } from 'chatmark/composer';
import { useEffect, useRef } from 'react';

export function Composer({ post }: { post: (body: Formatted & { chat_id: number }) => void }) {
  const ref = useRef<ChatmarkComposer>(null);
  useEffect(() => {
    const c = ref.current;
    if (!c) return;
    const send = (e: CustomEvent<Formatted>) => post({ chat_id: 1, ...e.detail });
    c.addEventListener('send', send);
    return () => c.removeEventListener('send', send);
  }, [post]);
  return <chatmark-composer ref={ref} mode="markdown" max-length={500} placeholder="Message" aria-label="Reply" />;
}

export const engine: string = about().version;
export const parsed: Formatted = parseMarkdown('**bold**');
