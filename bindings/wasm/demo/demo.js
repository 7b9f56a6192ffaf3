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

// Mentions, built on the composer's integration surface: `input` and `selectionStart` find an
// `@` being typed, a list offers people, and the pick replaces `@…` through setSelectionRange
// and insertText (one undo step, the caret after it). The keys the list takes are taken on the
// element in the capture phase, before the editor inside it acts on them.
const PEOPLE = ['Sam Rivera', 'Ana Lima', 'Ravi Shah', 'Chen Wei', 'Noor Haddad'];
const list = $('mentions');
let mention = null; // {at, names, active}: the `@` typed at `at`, the names that match

function showMentions() {
  const caret = composer.selectionStart;
  const typed = /(?:^|\s)@(\p{L}*)$/u.exec(composer.value.text.slice(0, caret));
  const names = typed ? PEOPLE.filter((name) => name.toLowerCase().startsWith(typed[1].toLowerCase())) : [];
  mention = names.length ? { at: caret - typed[1].length - 1, names, active: 0 } : null;
  list.hidden = !mention;
  list.replaceChildren(
    ...names.map((name, k) => {
      const item = document.createElement('li');
      item.role = 'option';
      item.ariaSelected = k === 0;
      item.innerHTML = '<span class="avatar" aria-hidden="true"></span>';
      item.firstChild.textContent = name[0];
      item.append(name);
      item.addEventListener('mousedown', (e) => {
        e.preventDefault(); // the editor keeps the focus and the caret
        pickMention(k);
      });
      return item;
    }),
  );
}

function pickMention(k) {
  const { at, names } = mention;
  composer.setSelectionRange(at, composer.selectionStart);
  composer.insertText(`@${names[k].split(' ')[0]} `);
  mention = null;
  list.hidden = true;
}

composer.addEventListener('input', showMentions);
composer.addEventListener(
  'keydown',
  (e) => {
    if (!mention) return;
    const n = mention.names.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      mention.active = (mention.active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
      for (const [k, item] of [...list.children].entries()) item.ariaSelected = k === mention.active;
    } else if (e.key === 'Enter' || e.key === 'Tab') pickMention(mention.active);
    else if (e.key === 'Escape') {
      mention = null;
      list.hidden = true;
    } else return;
    e.preventDefault();
    e.stopPropagation();
  },
  true,
);
document.documentElement.dataset.ready = 'true';
