// runs.js: the run list (filtered, refreshed live) and a run's page (steps, checks, resolved
// elements, errors in words, data, screenshots, cancel, run again), live over the events stream.

import { h, replace, ago, duration, pretty, statusBadge, errorBox } from './dom.js';
import { get, api, events, blobURL, enc } from './api.js';
import { errorInWords, runStatuses, active } from './words.js';

const filters = { status: '', script: '', source: '' };

// sources are the values of a run's "source" (what started it), for the source filter.
const sources = ['api', 'cli', 'trigger', 'schedule', 'email', 'sms', 'call', 'watch', 'extension'];

// listQuery is the filters as GET /runs parameters: the server filters (and pages) the list.
function listQuery() {
  const q = new URLSearchParams({ limit: '100' });
  if (filters.status) q.set('status', filters.status);
  if (filters.script === '-') q.set('adhoc', 'true');
  else if (filters.script) q.set('script', filters.script);
  if (filters.source) q.set('source', filters.source);
  return q.toString();
}

// runsView lists the account's runs, newest first, polling while the page is open.
export function runsView(main) {
  let timer = 0;
  let stopped = false;
  let asked = 0; // the newest request: an older answer that arrives late is dropped
  const body = h('tbody');
  const status = h('select', { id: 'filter-status', 'aria-label': 'Filter by status' },
    h('option', { value: '' }, 'any status'), runStatuses.map((s) => h('option', { value: s, selected: filters.status === s }, s.replace('_', ' '))));
  const script = h('select', { id: 'filter-script', 'aria-label': 'Filter by script' }, h('option', { value: '' }, 'any script'));
  const source = h('select', { id: 'filter-source', 'aria-label': 'Filter by what started the run' },
    h('option', { value: '' }, 'any source'), sources.map((s) => h('option', { value: s, selected: filters.source === s }, s)));
  const note = h('p', { class: 'hint', role: 'status' });
  let runs = [];
  const filtered = () => filters.status || filters.script || filters.source;
  const draw = () => {
    replace(body, runs.map(runRow));
    replace(note, runs.length ? '' : (filtered() ? 'No run matches these filters.' : 'No runs yet. Start one with POST /agents, or run a saved script from Scripts.'));
  };
  const fillScripts = (names) => {
    const keep = filters.script;
    replace(script, h('option', { value: '' }, 'any script'), h('option', { value: '-' }, '(no script: ad-hoc)'),
      [...names].sort().map((n) => h('option', { value: n, selected: keep === n }, n)));
    script.value = keep;
  };
  const names = new Set();
  get('/scripts').then((d) => { for (const s of d.scripts || []) names.add(s.name); fillScripts(names); }).catch(() => {});
  const poll = async () => {
    clearTimeout(timer);
    const mine = ++asked;
    try {
      const d = await get(`/runs?${listQuery()}`);
      if (mine !== asked || stopped) return;
      runs = d.runs || [];
      const before = names.size;
      for (const r of runs) if (r.script) names.add(r.script.name);
      if (names.size !== before || script.options.length <= 1) fillScripts(names);
      draw();
    } catch (e) {
      if (mine !== asked) return;
      replace(note, errorBox(e));
    }
    if (!stopped) timer = setTimeout(poll, runs.some((r) => active(r.status)) ? 1000 : 3000);
  };
  for (const [el, key] of [[status, 'status'], [script, 'script'], [source, 'source']]) {
    el.addEventListener('change', () => { filters[key] = el.value; poll(); });
  }
  replace(main,
    h('div', { class: 'page-head' }, h('h1', {}, 'Runs'), h('div', { class: 'filters' }, status, script, source)),
    h('div', { class: 'table-wrap' }, h('table', { class: 'runs' },
      h('thead', {}, h('tr', {}, ['Status', 'Goal', 'Script', 'Source', 'Duration', 'When'].map((t) => h('th', { scope: 'col' }, t)))),
      body)),
    note);
  poll();
  return () => { stopped = true; clearTimeout(timer); };
}

function runRow(r) {
  const dur = active(r.status) ? duration(Date.now() - new Date(r.created).getTime()) : duration(r.duration_ms);
  return h('tr', { 'data-run': r.run_id, class: `run-${r.status}` },
    h('td', {}, statusBadge(r.status)),
    h('td', {}, h('a', { href: `#/runs/${enc(r.run_id)}` }, r.goal || r.run_id), r.error ? h('div', { class: 'muted small' }, errorInWords(r.error)) : null),
    h('td', {}, r.script ? h('a', { href: `#/scripts/${enc(r.script.name)}` }, `${r.script.name} v${r.script.version}`) : h('span', { class: 'muted' }, '—')),
    h('td', {}, r.source || ''),
    h('td', { class: 'num' }, dur),
    h('td', { title: r.created }, ago(r.created)));
}

// runView is one run's page; a live run follows its events stream until "done".
export function runView(main, id) {
  const ctl = new AbortController();
  const urls = [];
  let doc = null;
  const head = h('div');
  const steps = h('ol', { class: 'steps', 'aria-label': 'Steps' });
  const shots = h('section', { class: 'shots', hidden: true });
  const live = h('section', { class: 'live', hidden: true });
  const data = h('pre', { class: 'json' });
  const msgs = h('ul', { class: 'messages' });
  replace(main, head, live, h('h2', {}, 'Steps'), steps, shots, h('h2', {}, 'Data'), data, h('h2', { hidden: true }, 'Messages'), msgs);

  const draw = () => {
    doc.steps = doc.steps || [];
    replace(head, runHead(doc, (d) => { doc = d; draw(); }));
    replace(steps, doc.steps.length ? doc.steps.map(stepItem) : h('li', { class: 'muted' }, active(doc.status) ? 'Waiting for the first step…' : 'No steps.'));
    data.textContent = pretty(doc.data || {});
  };
  const loadShots = async () => {
    try {
      const list = (await get(`/runs/${enc(id)}/artifacts`)).artifacts || [];
      const images = list.filter((a) => a.content_type.startsWith('image/'))
        .sort((a, b) => a.created.localeCompare(b.created) || a.name.localeCompare(b.name, undefined, { numeric: true }));
      if (images.length) timeline(shots, images, urls);
    } catch { /* a run without artifacts shows none */ }
  };
  (async () => {
    try {
      doc = await get(`/runs/${enc(id)}`);
    } catch (e) {
      replace(main, h('h1', {}, 'Run'), errorBox(e));
      return;
    }
    draw();
    if (!active(doc.status)) { loadShots(); return; }
    liveView(live, id, ctl.signal);
    try {
      await events(`/runs/${enc(id)}/events`, (type, ev) => {
        if (type === 'step' && ev.step) upsertStep(doc, ev.step);
        else if (type === 'status') doc.status = ev.message || doc.status;
        else if (type === 'done' && ev.doc) doc = ev.doc;
        else if (ev.message) { msgs.previousSibling.hidden = false; msgs.append(h('li', {}, `${type}: ${ev.message}`)); }
        draw();
      }, ctl.signal);
      doc = await get(`/runs/${enc(id)}`);
      draw();
      loadShots();
    } catch (e) {
      if (!ctl.signal.aborted) main.prepend(errorBox(e));
    }
  })();
  return () => { ctl.abort(); urls.forEach((u) => URL.revokeObjectURL(u)); };
}

function upsertStep(doc, step) {
  const i = doc.steps.findIndex((s) => s.index === step.index && (s.path || '') === (step.path || ''));
  if (i >= 0) doc.steps[i] = step; else doc.steps.push(step);
}

function runHead(doc, update) {
  const buttons = [];
  if (active(doc.status)) {
    buttons.push(h('button', { type: 'button', class: 'danger', id: 'cancel-run', onclick: async (ev) => {
      ev.target.disabled = true;
      try { update(await api('POST', `/runs/${enc(doc.run_id)}/cancel`)); } catch (e) { ev.target.after(errorBox(e)); }
    } }, 'Cancel'));
  }
  if (doc.script) {
    // Run again: the saved script with the same data; ad-hoc runs keep no nodes to re-send.
    buttons.push(h('button', { type: 'button', id: 'run-again', onclick: async (ev) => {
      ev.target.disabled = true;
      try {
        const data = doc.data && typeof doc.data.data === 'string' ? doc.data.data : '';
        const r = await api('POST', '/triggers/cloud', { name: doc.script.name, data });
        location.hash = `#/runs/${enc(r.run_id)}`;
      } catch (e) { ev.target.after(errorBox(e)); ev.target.disabled = false; }
    } }, 'Run again'));
  }
  const facts = [
    ['Run', h('code', {}, doc.run_id)],
    ['Script', doc.script ? h('a', { href: `#/scripts/${enc(doc.script.name)}` }, `${doc.script.name} (version ${doc.script.version})`) : 'none (ad-hoc)'],
    ['Started by', doc.source || ''],
    ['Created', `${new Date(doc.created).toLocaleString()} (${ago(doc.created)})`],
    ['Duration', active(doc.status) ? 'running…' : duration(doc.duration_ms)],
  ];
  return h('div', { class: 'run-head' },
    h('div', { class: 'page-head' }, h('h1', {}, doc.goal || doc.run_id), statusBadge(doc.status), h('div', { class: 'actions' }, buttons)),
    h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    doc.error ? h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'Why it failed: '), errorInWords(doc.error)) : null);
}

function stepItem(s) {
  const d = s.detail || {};
  const { resolved, ...rest } = d;
  return h('li', { class: `step step-${s.status}`, 'data-step': s.path || String(s.index) },
    h('div', { class: 'step-head' },
      h('span', { class: 'step-no' }, s.path || `#${s.index + 1}`),
      h('strong', {}, s.type), statusBadge(s.status), h('span', { class: 'muted' }, duration(s.duration_ms)),
      s.verification && s.verification.attempts > 1 ? h('span', { class: 'muted' }, `${s.verification.attempts} attempts`) : null),
    s.error ? h('div', { class: 'error-box' }, errorInWords(s.error)) : null,
    resolved ? resolvedBox(resolved) : null,
    s.verification && s.verification.checks && s.verification.checks.length
      ? h('ul', { class: 'checks', 'aria-label': 'Checks' }, s.verification.checks.map((c) =>
        h('li', { class: c.passed ? 'pass' : 'fail' }, h('span', { class: 'mark', 'aria-label': c.passed ? 'passed' : 'failed' }, c.passed ? '✓' : '✗'), ' ', h('code', {}, c.name), c.detail ? ` ${c.detail}` : '')))
      : null,
    Object.keys(rest).length ? h('details', {}, h('summary', {}, 'Detail'), h('pre', { class: 'json' }, pretty(rest))) : null);
}

function resolvedBox(r) {
  const pct = typeof r.confidence === 'number' ? Math.round(r.confidence * 100) : null;
  return h('div', { class: 'resolved' },
    h('span', { class: 'muted' }, 'Resolved to '),
    r.selector ? h('code', {}, r.selector) : null,
    r.text ? h('span', {}, ` “${r.text}”`) : null,
    r.role ? h('span', { class: 'muted' }, ` (${r.role})`) : null,
    pct !== null ? h('span', { class: 'confidence', title: `confidence ${r.confidence}` },
      h('meter', { min: 0, max: 1, low: 0.5, high: 0.8, optimum: 1, value: r.confidence }), ` ${pct}%`) : null,
    r.by ? h('span', { class: 'muted' }, ` by ${r.by}`) : null,
    r.why ? h('div', { class: 'muted small' }, r.why) : null,
    r.runners_up && r.runners_up.length ? h('details', {}, h('summary', {}, 'Runners-up'), h('pre', { class: 'json' }, pretty(r.runners_up))) : null);
}

// timeline shows image artifacts one at a time; ← and → (or the buttons) step through them.
function timeline(section, images, urls) {
  let at = 0;
  const img = h('img', { alt: '' });
  const caption = h('figcaption');
  const show = async (i) => {
    at = Math.max(0, Math.min(images.length - 1, i));
    const step = images[at].name.match(/^step-([\w-]+)\.jpg$/);
    caption.textContent = `${at + 1} of ${images.length}: ${step ? `after step ${step[1].split('-').map((p, i) => (i % 2 ? p : String(Number(p) + 1))).join(' ')}` : images[at].name}`;
    let u;
    try {
      u = await blobURL(images[at].url);
    } catch {
      return; // the page moved on while the image loaded (or it is gone): nothing to show
    }
    urls.push(u);
    img.src = u;
    img.alt = images[at].name;
  };
  const prev = h('button', { type: 'button', 'aria-label': 'Previous screenshot', onclick: () => show(at - 1) }, '←');
  const next = h('button', { type: 'button', 'aria-label': 'Next screenshot', onclick: () => show(at + 1) }, '→');
  const strip = h('figure', { class: 'timeline', tabindex: '0', 'aria-label': 'Screenshots: use the arrow keys', onkeydown: (ev) => {
    if (ev.key === 'ArrowLeft') { ev.preventDefault(); show(at - 1); }
    if (ev.key === 'ArrowRight') { ev.preventDefault(); show(at + 1); }
  } }, img, caption);
  section.hidden = false;
  replace(section, h('h2', {}, 'Screenshots'), h('div', { class: 'timeline-nav' }, prev, next), strip);
  show(0);
}

// liveView shows what the running run's browser tab shows: the frames of GET /runs/{id}/live,
// read with fetch so the key stays in the header. It ends with the run (or when the page is left).
function liveView(section, id, signal) {
  const img = h('img', { alt: 'The run’s browser tab, live', id: 'live-frame', hidden: true });
  const note = h('p', { class: 'muted small', role: 'status', id: 'live-note' }, 'Connecting to the run’s browser…');
  section.hidden = false;
  replace(section, h('h2', {}, 'Live'), h('figure', { class: 'live-view' }, img, note));
  let frames = 0;
  events(`/runs/${enc(id)}/live`, (type, ev) => {
    if (type === 'frame' && ev.jpeg) {
      img.src = `data:image/jpeg;base64,${ev.jpeg}`;
      img.hidden = false;
      frames++;
      note.textContent = `Live: ${ev.width}×${ev.height} page, ${frames} frame${frames === 1 ? '' : 's'} so far (at most 4 a second).`;
    } else if (type === 'waiting') {
      note.textContent = 'Live: the run has no browser tab open right now.';
    } else if (type === 'end') {
      section.hidden = true;
    }
  }, signal).catch((e) => {
    if (!signal.aborted) note.textContent = `The live view stopped: ${e.message}`;
  });
}
