// data.js: read views of the embedded sheets and the outbox, and the keys page.

import { h, replace, ago, errorBox } from './dom.js';
import { get, enc } from './api.js';

function table(headers, rows) {
  return h('div', { class: 'table-wrap' }, h('table', {},
    h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows)));
}

function page(main, title, load) {
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  replace(main, h('div', { class: 'page-head' }, h('h1', {}, title)), body);
  load().then((content) => replace(body, content)).catch((e) => replace(body, errorBox(e)));
}

export function sheetsView(main) {
  page(main, 'Sheets', async () => {
    const list = (await get('/sheets')).sheets || [];
    if (!list.length) return h('p', { class: 'hint' }, 'No sheets yet: the sheets_create and sheets_add_row nodes make them.');
    return table(['Name', 'Rows', 'Columns', 'Updated'], list.map((s) => h('tr', {},
      h('td', {}, h('a', { href: `#/sheets/${enc(s.id)}` }, s.name || s.id)), h('td', { class: 'num' }, s.rows),
      h('td', {}, (s.header || []).join(', ')), h('td', { title: s.updated }, ago(s.updated)))));
  });
}

export function sheetView(main, id) {
  page(main, 'Sheet', async () => {
    const s = await get(`/sheets/${enc(id)}?limit=500`);
    main.querySelector('h1').textContent = s.name || s.id;
    const width = Math.max(s.header.length, ...s.rows.map((r) => r.length), 0);
    const header = s.header.length ? s.header : Array.from({ length: width }, (_, i) => `column ${i + 1}`);
    return h('div', {},
      h('p', { class: 'muted' }, `${s.total_rows} rows${s.next ? ` (showing ${s.rows.length})` : ''}. Exports: `, h('code', {}, `/sheets/${s.id}.csv`), ', ', h('code', {}, `/sheets/${s.id}.xlsx`), ' (with your key as Authorization: Bearer).'),
      table(header, s.rows.map((r) => h('tr', {}, r.map((c) => h('td', {}, c))))));
  });
}

export function outboxView(main) {
  page(main, 'Outbox', async () => {
    const list = (await get('/outbox')).messages || [];
    if (!list.length) return h('p', { class: 'hint' }, 'The outbox is empty. Mail the email node sends is kept here when no SMTP server is configured.');
    return table(['Subject', 'To', 'Run', 'When'], list.map((m) => h('tr', {},
      h('td', {}, h('a', { href: `#/outbox/${enc(m.id)}` }, m.subject || '(no subject)')), h('td', {}, (m.to || []).join(', ')),
      h('td', {}, m.run_id ? h('a', { href: `#/runs/${enc(m.run_id)}` }, m.run_id) : ''), h('td', { title: m.created }, ago(m.created)))));
  });
}

export function outboxMessageView(main, id) {
  page(main, 'Message', async () => {
    const m = await get(`/outbox/${enc(id)}`);
    main.querySelector('h1').textContent = m.subject || '(no subject)';
    return h('div', { class: 'card' },
      h('dl', { class: 'facts' }, h('dt', {}, 'To'), h('dd', {}, (m.to || []).join(', ')), h('dt', {}, 'When'), h('dd', {}, new Date(m.created).toLocaleString()),
        m.run_id ? [h('dt', {}, 'Run'), h('dd', {}, h('a', { href: `#/runs/${enc(m.run_id)}` }, m.run_id))] : null,
        m.attachments && m.attachments.length ? [h('dt', {}, 'Attachments'), h('dd', {}, m.attachments.map((a) => `${a.name} (${a.size} bytes)`).join(', '))] : null),
      // The body is shown as text, never as HTML: mail content is untrusted.
      h('pre', { class: 'mail-body' }, m.body));
  });
}

export function keysView(main) {
  replace(main, h('div', { class: 'page-head' }, h('h1', {}, 'Keys')),
    h('div', { class: 'card' },
      h('p', {}, 'Keys are managed on the server’s command line; the HTTP API has no key endpoints, so a key can never create or revoke keys.'),
      h('pre', { class: 'code' }, 'rodeo keys create [--account NAME]   # prints a new key once\nrodeo keys list                      # id, account, prefix, state\nrodeo keys revoke ID'),
      h('p', { class: 'muted' }, 'A revoked key stops working at once; a studio signed in with it goes back to the sign-in page.')));
}
