// The chat demo: <chatmark-composer> at the bottom, sent messages as bubbles above it
// (rendered with toHtml), and the request body of the last message beside them.
import init, { parseMarkdown, toHtml } from '../js/browser.js';
import '../js/composer.js';

const $ = (id) => document.getElementById(id);
const composer = $('composer');

const now = () => new Date().toTimeString().slice(0, 5);

/** Adds a bubble (`who`: 'me' or 'them') rendered with toHtml, and shows its request body. */
function bubble(message, who, time = now()) {
  const li = document.createElement('li');
  li.className = `bubble ${who}`;
  const text = document.createElement('div');
  text.className = 'message';
  text.innerHTML = toHtml(message); // W1: user text is escaped, styles are fixed strings
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.textContent = time + (who === 'me' ? ' ✓✓' : '');
  li.append(text, meta);
  $('thread').append(li);
  li.scrollIntoView({ block: 'end' });
  if (who === 'me') {
    const runs = message.text_styles.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
    $('body').textContent =
      `{\n  "chat_id": 1,\n  "text": ${JSON.stringify(message.text)},\n` +
      `  "text_styles": [${runs ? `\n${runs}\n  ` : ''}]\n}`;
  }
}

await init();
await composer.ready;

bubble(parseMarkdown('Hi! Can you pick up a few things for **Saturday**? 🎉'), 'them', '09:38');
bubble(parseMarkdown('Sure, **on my way** 🚗 what do we need?'), 'me', '09:39');
bubble(parseMarkdown('I’ll write the list, {red}don’t forget the cake{/red}!'), 'them', '09:41');

// the draft is pre-filled: the first view is a message ready to send, never an error
composer.value = parseMarkdown(
  '# Shopping\n- **milk** and {red}eggs{/red}\n- _bread_, ~~jam~~ {green}honey{/green}\n  - the <big>big</big> jar',
);
composer.addEventListener('send', (e) => bubble(e.detail, 'me'));
document.documentElement.dataset.ready = 'true';
