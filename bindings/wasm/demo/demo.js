// The composer: every keystroke resolves the message through the wasm engine and shows the
// preview (toHtml), the request body and the runs.
import init, { resolveSendMessage, toHtml } from '../js/browser.js';

const $ = (id) => document.getElementById(id);
const input = $('input');

function mode() {
  return document.querySelector('input[name=mode]:checked').value;
}

function update() {
  const body = { chat_id: 1, text: input.value };
  if (mode() !== 'plain') body.parse_mode = mode();
  const status = $('status');
  let f;
  try {
    f = resolveSendMessage(body, { diagnostics: true });
  } catch (e) {
    status.textContent = `${e.code}: ${e.message}`;
    status.className = 'error';
    $('preview').innerHTML = '';
    $('body').textContent = '';
    $('runs').tBodies[0].replaceChildren();
    return;
  }
  status.className = '';
  status.textContent = f.diagnostics.map((d) => `${d.code} at ${d.start}+${d.len}`).join('; ');
  const message = { text: f.text, text_styles: f.text_styles };
  $('preview').innerHTML = toHtml(message);
  // the body as a client sends it, one run per line
  const runs = message.text_styles.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
  $('body').textContent =
    `{\n  "chat_id": 1,\n  "text": ${JSON.stringify(message.text)},\n` +
    `  "text_styles": [${runs ? `\n${runs}\n  ` : ''}]\n}`;
  const rows = f.text_styles.map(({ start, len, st }) => {
    const tr = document.createElement('tr');
    for (const [v, cls] of [[start], [len], [JSON.stringify(f.text.slice(start, start + len)), 't'], [st.join(' ')]]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      if (cls) td.className = cls;
      tr.append(td);
    }
    return tr;
  });
  $('runs').tBodies[0].replaceChildren(...rows);
}

await init();
input.addEventListener('input', update);
for (const r of document.querySelectorAll('input[name=mode]')) r.addEventListener('change', update);
update();
document.documentElement.dataset.ready = 'true';
