'use client';
// The composer in React: importing chatmark/composer is a no-op where Next.js prerenders on the
// server, and defines <chatmark-composer> in the browser.
import 'chatmark/composer';

export default function Composer() {
  return <chatmark-composer placeholder="Message" />;
}
