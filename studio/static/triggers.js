// triggers.js: what starts a saved script besides its webhook: its schedules (with their next
// fire times; added, paused, resumed and deleted here) and its email, phone and watch triggers
// (GET /scripts/{name}/triggers).

import { h, replace, ago, errorBox } from './dom.js';
import { get, api, enc } from './api.js';

// timingKinds are the ways a schedule says when it fires (docs/schedules.md).
const timingKinds = [
  ['text', 'in words', 'e.g. every weekday at 9am'],
  ['every', 'every', 'e.g. 15m, 2h, 1d'],
  ['cron', 'cron', 'e.g. 0 9 * * 1-5'],
];

// until says how far ahead an ISO time is, in words.
function until(iso) {
  const s = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
  if (s < 60) return 'in under a minute';
  if (s < 3600) return `in ${Math.round(s / 60)} min`;
  if (s < 86400) return `in ${Math.round(s / 3600)} h`;
  return `in ${Math.round(s / 86400)} days`;
}

function timing(sc) {
  if (sc.text) return [sc.text, sc.cron ? h('div', { class: 'muted small' }, h('code', {}, sc.cron)) : null];
  if (sc.every) return `every ${sc.every}`;
  return h('code', {}, sc.cron);
}

// armed is a button that asks before it acts: the first press arms it, the second runs act.
function armed(label, ask, act, attrs) {
  const b = h('button', { type: 'button', class: 'small danger', ...attrs, onclick: async () => {
    if (!b.dataset.armed) { b.dataset.armed = '1'; b.textContent = ask; return; }
    b.disabled = true;
    await act(b);
  } }, label);
  return b;
}

// scriptTriggers fills section with the script's schedules and inbound triggers.
export function scriptTriggers(section, name) {
  const schedules = h('div', { id: 'schedules' });
  const inbound = h('div', { id: 'inbound-triggers' });
  const load = async () => {
    let list;
    try {
      list = (await get(`/scripts/${enc(name)}/triggers`)).triggers || [];
    } catch (e) {
      replace(schedules, errorBox(e));
      return;
    }
    drawSchedules(schedules, list.filter((t) => t.kind === 'schedule').map((t) => t.trigger), load);
    drawInbound(inbound, list.filter((t) => t.kind !== 'schedule'));
  };
  replace(section, h('h3', {}, 'Schedules'), schedules, scheduleForm(name, load), h('h3', {}, 'Email, phone and watch triggers'), inbound);
  load();
}

function drawSchedules(box, list, reload) {
  if (!list.length) { replace(box, h('p', { class: 'hint' }, 'No schedule runs this script yet: add one below.')); return; }
  const act = (sc, path, method = 'POST') => async (b) => {
    try { await api(method, `/schedules/${enc(sc.id)}${path}`); reload(); } catch (e) { b.disabled = false; b.after(errorBox(e)); }
  };
  replace(box, h('div', { class: 'table-wrap' }, h('table', { class: 'schedules' },
    h('thead', {}, h('tr', {}, ['When', 'Timezone', 'Next fire times', 'State', ''].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, list.map((sc) => h('tr', { 'data-schedule': sc.id },
      h('td', {}, timing(sc)),
      h('td', {}, sc.timezone),
      h('td', {}, sc.enabled && sc.next && sc.next.length
        ? h('ul', { class: 'next-times' }, sc.next.slice(0, 3).map((t) => h('li', { title: t }, `${new Date(t).toLocaleString()} (${until(t)})`)))
        : h('span', { class: 'muted' }, 'none while paused')),
      h('td', {}, sc.enabled ? h('span', { class: 'badge status-ok' }, 'active') : h('span', { class: 'badge' }, 'paused'),
        sc.last_slot ? h('div', { class: 'muted small', title: sc.last_slot }, `last fired ${ago(sc.last_slot)}`) : null),
      h('td', { class: 'actions' },
        h('button', { type: 'button', class: 'small', 'data-act': sc.enabled ? 'pause' : 'resume', onclick: (ev) => { ev.target.disabled = true; act(sc, sc.enabled ? '/pause' : '/resume')(ev.target); } },
          sc.enabled ? 'Pause' : 'Resume'),
        armed('Delete', 'Really delete?', act(sc, '', 'DELETE'), { 'data-act': 'delete' }))))))));
}

function scheduleForm(name, reload) {
  const kind = h('select', { id: 'schedule-kind', 'aria-label': 'How the schedule says when' }, timingKinds.map(([v, label]) => h('option', { value: v }, label)));
  const value = h('input', { id: 'schedule-value', type: 'text', spellcheck: 'false', 'aria-label': 'When', placeholder: timingKinds[0][2] });
  const tz = h('input', { id: 'schedule-tz', type: 'text', spellcheck: 'false', 'aria-label': 'Timezone', placeholder: 'timezone (optional), e.g. Europe/Berlin' });
  const err = h('div', { class: 'field-error', role: 'alert', hidden: true });
  kind.addEventListener('change', () => { value.placeholder = timingKinds.find(([v]) => v === kind.value)[2]; });
  return h('form', { class: 'inline-form', id: 'add-schedule', onsubmit: async (ev) => {
    ev.preventDefault();
    err.hidden = true;
    const body = { name, [kind.value]: value.value.trim() };
    if (tz.value.trim()) body.timezone = tz.value.trim();
    try {
      await api('POST', '/schedules', body);
      value.value = '';
      reload();
    } catch (e) {
      err.hidden = false;
      replace(err, e.details.length ? e.details.map((d) => h('p', { 'data-field': d.field || '' }, d.field ? `${d.field}: ${d.problem}` : d.problem)) : e.message);
    }
  } }, kind, value, tz, h('button', { type: 'submit', class: 'primary', id: 'add-schedule-button' }, 'Add schedule'), err);
}

function drawInbound(box, list) {
  if (!list.length) {
    replace(box, h('p', { class: 'hint' }, 'None. ', h('code', {}, 'POST /triggers/email'), ', ', h('code', {}, 'POST /triggers/phone'), ' and ',
      h('code', {}, 'POST /watches'), ' make them (docs/inbound-triggers.md).'));
    return;
  }
  const facts = (t) => {
    switch (t.kind) {
      case 'email': return ['mail to ', h('code', {}, t.address), t.from ? ` from ${t.from}` : '', t.subject ? ` with “${t.subject}” in the subject` : ''];
      case 'phone': return ['SMS webhook ', h('code', {}, t.sms_url), ', call webhook ', h('code', {}, t.call_url), t.signed ? ' (signed)' : ''];
      case 'watch': return ['watches ', h('code', {}, t.watch_url), ` every ${t.every} for `, h('code', {}, t.condition), t.paused ? ' (paused)' : ''];
      default: return h('code', {}, JSON.stringify(t));
    }
  };
  replace(box, h('ul', { class: 'inbound' }, list.map(({ kind, trigger }) => h('li', { 'data-trigger': trigger.id },
    h('span', { class: 'badge' }, kind), ' ', facts({ kind, ...trigger }), ' ', h('span', { class: 'muted small' }, trigger.id)))));
}
