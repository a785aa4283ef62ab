// data.js: read views of the embedded sheets and the outbox, and the keys page.

import { h, replace, ago, errorBox, copyButton } from './dom.js';
import { get, api, enc, session } from './api.js';

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

// keysView lists the account's keys and creates and revokes them (POST/GET/DELETE /keys). A new
// key's secret is shown once, with a copy button; the page never stores it.
export function keysView(main) {
  const list = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const made = h('div', { id: 'new-key-box' });
  const label = h('input', { id: 'key-label', type: 'text', placeholder: 'label (optional): what the key is for', spellcheck: 'false', maxlength: 64 });
  const formErr = h('p', { class: 'field-error', role: 'alert', hidden: true });
  const create = h('form', { class: 'inline-form', id: 'create-key', onsubmit: async (ev) => {
    ev.preventDefault();
    formErr.hidden = true;
    try {
      const k = await api('POST', '/keys', { label: label.value.trim() });
      label.value = '';
      replace(made, h('div', { class: 'secret-box', role: 'status' },
        h('p', {}, h('strong', {}, 'Copy the new key now: '), 'rodeo keeps only its hash and will not show it again.'),
        h('div', { class: 'copy-row' }, h('code', { id: 'new-key-secret' }, k.secret), copyButton('Copy key', k.secret)),
        h('button', { type: 'button', class: 'small', id: 'dismiss-key', onclick: () => replace(made) }, 'I have copied it')));
      load();
    } catch (e) {
      formErr.hidden = false;
      formErr.textContent = e.message;
    }
  } }, label, h('button', { type: 'submit', class: 'primary' }, 'Create key'), formErr);

  const revokeButton = (k) => {
    // Two steps instead of a dialog: the first press asks, the second revokes.
    const b = h('button', { type: 'button', class: 'danger small', 'data-act': 'revoke', onclick: async () => {
      if (!b.dataset.armed) {
        b.dataset.armed = '1';
        b.textContent = k.current ? 'Revoke this key and sign out?' : 'Really revoke?';
        return;
      }
      b.disabled = true;
      try {
        await api('DELETE', `/keys/${enc(k.id)}${k.current ? '?self=true' : ''}`);
        if (k.current) { session.signOut(); location.hash = '#/runs'; return; } // the key is gone: back to sign-in
        load();
      } catch (e) { b.after(errorBox(e)); }
    } }, 'Revoke');
    return b;
  };
  const load = async () => {
    try {
      const keys = (await get('/keys')).keys || [];
      replace(list, table(['Key', 'Label', 'Created', 'State', ''], keys.map((k) => h('tr', { 'data-key': k.id },
        h('td', {}, h('code', {}, `${k.prefix}…`), ' ', h('span', { class: 'muted small' }, k.id), ' ', k.current ? h('span', { class: 'badge', title: 'the key this studio is signed in with' }, 'this studio') : null),
        h('td', {}, k.label || h('span', { class: 'muted' }, '—')),
        h('td', { title: k.created }, ago(k.created)),
        h('td', {}, k.revoked ? h('span', { class: 'badge status-failed', title: k.revoked_at }, 'revoked') : h('span', { class: 'badge status-ok' }, 'active')),
        h('td', { class: 'actions' }, k.revoked ? null : revokeButton(k))))));
    } catch (e) { replace(list, errorBox(e)); }
  };
  replace(main, h('div', { class: 'page-head' }, h('h1', {}, 'Keys')),
    h('p', { class: 'hint' }, 'Keys of this account. A key can create and revoke its own account’s keys; other accounts’ keys are made with ',
      h('code', {}, 'rodeo keys create --account NAME'), ' on the server. A revoked key stops working at once.'),
    create, made, list);
  load();
}
