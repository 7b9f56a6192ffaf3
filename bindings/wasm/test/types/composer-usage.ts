// A usage example of `chatmark/composer`, checked by `tsc --noEmit -p test/composer.tsconfig.json`
// (run by test/composer.test.mjs) against composer.d.ts.
import { ChatmarkComposer } from 'chatmark/composer';
import * as inline from 'chatmark/inline';
import type { Formatted } from 'chatmark';

ChatmarkComposer.engine = inline;
const c = document.createElement('chatmark-composer');
const same: ChatmarkComposer = c;
await c.ready;
c.value = { text: 'Hello world', text_styles: [{ start: 0, len: 5, st: ['b'] }] };
c.mode = 'markdown';
c.maxLength = 4096;
c.enterSends = true;
c.addEventListener('send', (e) => {
  const body: Formatted & { chat_id: number } = { chat_id: 1, ...e.detail };
  console.log(body.text_styles.length, same.over, c.value.text);
});
// over the limit, sent as parts
c.splitLong = true;
c.addEventListener('send', (e) => {
  const parts: Formatted[] = e.detail.parts ?? [e.detail];
  for (const part of parts) console.log({ chat_id: 1, ...part });
});
c.setSelectionRange(0, 5);
// a form control
c.name = 'text';
c.required = true;
c.disabled = c.readOnly;
c.defaultValue = '';
c.value = '';
const valid: boolean = c.checkValidity() && !c.validity.valueMissing && c.form instanceof HTMLFormElement;
console.log(valid, c.validationMessage);
// the integration surface
c.addEventListener('beforeinput', (e) => e.data === '@' && e.preventDefault());
c.addEventListener('input', (e) => console.log(e.inputType, e.data));
c.insertText('@sam', ['b']);
c.selectionStart = c.selectionEnd - 1;
const sent: boolean = c.send();
console.log(sent);
