// The composer: every keystroke resolves the message through the wasm engine and shows the
// preview (toHtml), the request body and the runs.
import init, { canRender, resolveSendMessage, toHtml } from '../js/browser.js';

const $ = (id) => document.getElementById(id);
const input = $('input');

const COLOURS = { c_050a19: '#050a19', c_15a85f: '#15a85f', c_f7b503: '#f7b503', c_f27806: '#f27806', c_db342e: '#db342e' };
const SIZES = { f_13: '13px', f_15: '15px', f_18: '18px', f_20: '20px' };
const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// PLACEHOLDER preview, used only by builds without rendering (canRender() false): inline
// codes only, no lists. Builds with rendering use the engine's toHtml (spec W1).
function placeholderHtml({ text, text_styles }) {
  let html = '';
  let at = 0;
  const piece = (s) => escape(s).replace(/\n/g, '<br>');
  for (const { start, len, st } of text_styles) {
    html += piece(text.slice(at, start));
    let inner = piece(text.slice(start, start + len));
    const css = st.map((c) => (COLOURS[c] ? `color:${COLOURS[c]}` : SIZES[c] ? `font-size:${SIZES[c]}` : '')).filter(Boolean);
    if (css.length) inner = `<span style="${css.join(';')}">${inner}</span>`;
    for (const [code, tag] of [['s', 's'], ['u', 'u'], ['i', 'i'], ['b', 'b']]) {
      if (st.includes(code)) inner = `<${tag}>${inner}</${tag}>`;
    }
    html += inner;
    at = start + len;
  }
  return html + piece(text.slice(at));
}

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
  $('preview').innerHTML = canRender() ? toHtml(message) : placeholderHtml(message);
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
$('renderer').textContent = canRender() ? '(toHtml)' : '(placeholder: no rendering in this build)';
input.addEventListener('input', update);
for (const r of document.querySelectorAll('input[name=mode]')) r.addEventListener('change', update);
update();
document.documentElement.dataset.ready = 'true';
