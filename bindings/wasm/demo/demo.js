// The chat demo: <chatmark-composer> at the bottom, sent messages as bubbles above it
// (rendered with toHtml), and the request body of the last message beside them.
import init, { parseMarkdown, toHtml } from '../js/browser.js';
import '../js/composer.js';

const $ = (id) => document.getElementById(id);
const composer = $('composer');

const now = () => new Date().toTimeString().slice(0, 5);

/** The request body of a message. */
function body(message) {
  const runs = message.text_styles.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
  return (
    `{\n  "chat_id": 1,\n  "text": ${JSON.stringify(message.text)},\n` +
    `  "text_styles": [${runs ? `\n${runs}\n  ` : ''}]\n}`
  );
}

/** Adds a bubble (`who`: 'me' or 'them') rendered with toHtml. */
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
}

await init();
await composer.ready;

bubble(parseMarkdown('Hi! Can you pick up a few things for **Saturday**? 🎉'), 'them', '09:38');
const mine = parseMarkdown('Sure, **on my way** 🚗 what do we need?');
bubble(mine, 'me', '09:39');
$('body').textContent = body(mine);
bubble(parseMarkdown('I’ll write the list, {red}don’t forget the cake{/red}!'), 'them', '09:41');

// the draft is pre-filled: the first view is a message ready to send, never an error
composer.value = parseMarkdown(
  '# Shopping\n- **milk** and {red}eggs{/red}\n- _bread_, ~~jam~~ {green}honey{/green}\n  - the <big>big</big> jar',
);
// the composer has `split-long`: a message over the limit (2,000 units) goes as its parts, in
// order, one request each
composer.addEventListener('send', (e) => {
  for (const part of e.detail.parts) bubble(part, 'me');
  $('body').textContent = e.detail.parts.map(body).join('\n\n');
});

// a long draft, to show the over-limit state: the status says how many messages it makes
const DAYS = [
  ['Lisbon', 'the tram up to the castle', 'pastries in Belém and the tower', 'fado in Alfama (book the table)'],
  ['Sintra', 'the train from Rossio at 8:10', 'Pena Palace, then the Moorish walls', 'back for dinner near the river'],
  ['Porto', 'the Alfa Pendular, 2 h 50', 'the Ribeira and the bridge on foot', 'port tasting across the river'],
  ['Douro', 'the valley train to Pinhão', 'a boat on the river between terraces', 'the quinta, dinner included'],
  ['Coimbra', 'the old university and its library', 'lunch by the Mondego', 'fado again, the student kind'],
  ['Nazaré', 'the bus along the coast', 'the lighthouse and the big-wave cliff', 'grilled fish on the beach'],
  ['Évora', 'the Roman temple and the cathedral roof', 'cork and wine in the hills', 'a night under very dark skies'],
];
$('long').addEventListener('click', () => {
  const days = DAYS.map(
    ([town, morning, afternoon, evening], k) =>
      `**Day ${k + 1}: ${town}**\n- Morning: ${morning}.\n- Afternoon: ${afternoon}.\n- Evening: ${evening}.\n` +
      `Tickets for ${town} are in the shared folder; {green}everything is booked{/green}, ` +
      'and the times can still move by an hour or two if the weather turns.',
  );
  composer.value = parseMarkdown(
    `# Our week in Portugal\n${days.join('\n\n')}\n\nPack light: _one bag each_, a raincoat, good shoes. ` +
      'Tell me what you would change before Friday, and I will send the final plan to everyone.',
  );
  composer.focus();
});

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
