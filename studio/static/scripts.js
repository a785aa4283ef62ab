// scripts.js: the saved scripts: their list, and a script's page: the form (or JSON) editor,
// save with the server's validation shown at each field, versions with a diff and restore,
// run now, and the webhook that runs it.

import { h, replace, ago, pretty, errorBox, copyButton } from './dom.js';
import { get, api, enc } from './api.js';
import { Editor } from './editor.js';
import { diffLines } from './diff.js';
import { nodeSpecs } from './catalogue.js';
import { scriptTriggers } from './triggers.js';

export function scriptsView(main) {
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  replace(main, h('div', { class: 'page-head' }, h('h1', {}, 'Scripts'), h('a', { class: 'button primary', href: '#/scripts/new', id: 'new-script' }, 'New script')), body);
  get('/scripts').then((d) => {
    const list = d.scripts || [];
    if (!list.length) { replace(body, h('p', { class: 'hint' }, 'No saved scripts yet. Make one with “New script”: pick nodes from the catalogue and fill in their fields.')); return; }
    replace(body, h('div', { class: 'table-wrap' }, h('table', { class: 'scripts' },
      h('thead', {}, h('tr', {}, ['Name', 'Latest version', 'Updated', 'Created'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, list.map((s) => h('tr', { 'data-script': s.name },
        h('td', {}, h('a', { href: `#/scripts/${enc(s.name)}` }, s.name)),
        h('td', { class: 'num' }, `v${s.latest_version}`),
        h('td', { title: s.updated }, ago(s.updated)),
        h('td', { title: s.created }, ago(s.created))))))));
  }).catch((e) => replace(body, errorBox(e)));
}

// scriptView edits the saved script name (null: a new one).
export function scriptView(main, name) {
  const state = { name, goal: '', nodes: [], latest: 0, mode: 'form' };
  const nameInput = h('input', { id: 'script-name', type: 'text', value: name || '', placeholder: 'e.g. signup', required: true, spellcheck: 'false', disabled: !!name });
  const goalInput = h('input', { id: 'script-goal', type: 'text', placeholder: 'what the script is for, in words', spellcheck: 'false', oninput: () => { state.goal = goalInput.value; } });
  const topErrors = h('div', { class: 'top-errors', role: 'alert' });
  const formEl = h('div', { class: 'form-view' });
  const jsonEl = h('textarea', { id: 'script-json', class: 'code json-view', rows: 24, spellcheck: 'false', hidden: true, 'aria-label': 'The script as JSON' });
  const jsonNote = h('p', { class: 'field-error', role: 'alert', hidden: true });
  const saved = h('span', { class: 'saved-note', role: 'status' });
  const versions = h('section', { class: 'versions' });
  const triggers = h('section', { class: 'triggers' });
  const moreTriggers = h('section', { class: 'script-triggers' });
  const runBox = h('section', { class: 'run-now' });
  let editor;

  const fieldErr = (id, problem) => h('p', { class: 'field-error', role: 'alert', 'data-for': id }, problem);
  const clearErrors = () => { replace(topErrors); main.querySelectorAll('.head-fields .field-error').forEach((e) => e.remove()); };

  const showMode = (mode) => {
    if (mode === 'form' && state.mode === 'json') {
      try {
        const v = JSON.parse(jsonEl.value);
        if (!v || !Array.isArray(v.json_output)) throw new Error('the JSON needs a "json_output" array of nodes');
        state.goal = typeof v.goal === 'string' ? v.goal : '';
        goalInput.value = state.goal;
        state.nodes = v.json_output;
        editor.set(state.nodes);
        jsonNote.hidden = true;
      } catch (e) {
        jsonNote.hidden = false;
        jsonNote.textContent = `Fix the JSON first: ${e.message}`;
        return;
      }
    }
    if (mode === 'json') jsonEl.value = pretty({ goal: state.goal, json_output: state.nodes });
    state.mode = mode;
    formEl.hidden = mode !== 'form';
    jsonEl.hidden = mode !== 'json';
    tabForm.setAttribute('aria-selected', String(mode === 'form'));
    tabJSON.setAttribute('aria-selected', String(mode === 'json'));
  };
  const tabForm = h('button', { type: 'button', role: 'tab', id: 'tab-form', 'aria-selected': 'true', onclick: () => showMode('form') }, 'Form');
  const tabJSON = h('button', { type: 'button', role: 'tab', id: 'tab-json', 'aria-selected': 'false', onclick: () => showMode('json') }, 'JSON');

  const current = () => {
    if (state.mode === 'json') {
      const v = JSON.parse(jsonEl.value);
      return { goal: v.goal, json_output: v.json_output };
    }
    return { goal: state.goal, json_output: state.nodes };
  };

  const save = async (body) => {
    clearErrors();
    saved.textContent = '';
    const n = (state.name || nameInput.value).trim();
    try {
      body = body || current();
    } catch (e) {
      jsonNote.hidden = false;
      jsonNote.textContent = `The JSON is not valid: ${e.message}`;
      return;
    }
    try {
      const r = await api('PUT', `/scripts/${enc(n)}`, body);
      editor.showErrors([]);
      saved.textContent = `Saved version ${r.version}.`;
      if (!state.name) { location.hash = `#/scripts/${enc(n)}`; return; }
      state.latest = r.version;
      loadVersions();
    } catch (e) {
      if (e.code === 'invalid_config' && e.details.length) {
        editor.showErrors(e.details);
        if (state.mode === 'json') showMode('form');
        for (const d of e.details) {
          if (d.node !== undefined && d.node !== null) continue;
          if (d.field === 'name') nameInput.after(fieldErr('script-name', d.problem));
          else if (d.field === 'goal') goalInput.after(fieldErr('script-goal', d.problem));
          else topErrors.append(h('p', { class: 'field-error' }, d.field ? `${d.field}: ${d.problem}` : d.problem));
        }
        topErrors.prepend(h('p', { class: 'error-box' }, `Not saved: ${e.message}`));
        const first = ['.field.invalid input, .field.invalid textarea, .field.invalid select', '.node.has-error .node-type', '.head-fields input']
          .map((q) => main.querySelector(q)).find(Boolean);
        if (first) first.focus();
      } else {
        topErrors.append(errorBox(e));
      }
    }
  };

  const loadVersions = async () => {
    if (!state.name || !state.latest) { replace(versions); return; }
    const list = [];
    for (let v = state.latest; v >= 1 && v > state.latest - 50; v--) list.push(get(`/scripts/${enc(state.name)}?version=${v}`));
    const all = await Promise.all(list.map((p) => p.catch(() => null)));
    const diffBox = h('div', { class: 'diff-box' });
    const text = (v) => pretty({ goal: v.goal, json_output: v.json_output });
    replace(versions, h('h2', {}, 'Versions'),
      h('ol', { class: 'version-list', reversed: true }, all.filter(Boolean).map((v) => h('li', { 'data-version': v.version },
        h('strong', {}, `v${v.version}`), ' ', h('span', { class: 'muted', title: v.created }, ago(v.created)), ' ',
        h('button', { type: 'button', class: 'small', 'data-act': 'diff', onclick: () => {
          let now;
          try { now = pretty(current()); } catch { now = ''; }
          showDiff(diffBox, `v${v.version}`, 'the editor', text(v), now);
        } }, 'Diff with the editor'), ' ',
        v.version === state.latest ? h('span', { class: 'muted' }, '(latest)') : h('button', { type: 'button', class: 'small', 'data-act': 'restore', onclick: () => {
          // Restoring saves the old version again as the newest one; history is never rewritten.
          save({ goal: v.goal, json_output: v.json_output }).then(() => load());
        } }, 'Restore')))),
      diffBox);
  };

  const drawTriggers = () => {
    if (!state.name) { replace(triggers); replace(runBox); replace(moreTriggers); return; }
    scriptTriggers(moreTriggers, state.name);
    const url = `${location.origin}/triggers/cloud`;
    const curl = `curl -s ${url} -H 'Content-Type: application/json' \\\n  -d '{"key": "'"$RODEO_KEY"'", "name": ${JSON.stringify(state.name)}, "data": "anything the script reads as {{data}}"}'`;
    replace(triggers, h('h2', {}, 'Triggers'),
      h('p', {}, 'A POST to the webhook runs the latest version; its ', h('code', {}, 'data'), ' becomes the variable ', h('code', {}, '{{data}}'), ' (a value, never code). Add ', h('code', {}, '?wait=true'), ' to get the run document back.'),
      h('h3', {}, 'Webhook'),
      h('div', { class: 'copy-row' }, h('code', { id: 'webhook-url' }, url), copyButton('Copy URL', url)),
      h('p', { class: 'muted small' }, 'The same body to ', h('code', {}, `${location.origin}/triggers/extension`), ' runs it in your own browser through the companion extension.'),
      h('div', { class: 'copy-row' }, h('pre', { id: 'webhook-curl', class: 'code' }, curl), copyButton('Copy curl', curl)),
      h('p', { class: 'muted small' }, 'Set RODEO_KEY to your key first; the studio never writes your key into a page or a URL.'));
    const data = h('input', { id: 'run-data', type: 'text', placeholder: 'data (optional): becomes {{data}}', spellcheck: 'false' });
    const out = h('div');
    replace(runBox, h('h2', {}, 'Run now'), h('div', { class: 'copy-row' }, data,
      h('button', { type: 'button', class: 'primary', id: 'run-now', onclick: async () => {
        replace(out);
        try {
          const r = await api('POST', '/triggers/cloud', { name: state.name, data: data.value });
          location.hash = `#/runs/${enc(r.run_id)}`;
        } catch (e) { replace(out, errorBox(e)); }
      } }, 'Run now')), out);
  };

  const load = async () => {
    if (!state.name) return;
    try {
      const v = await get(`/scripts/${enc(state.name)}`);
      state.goal = v.goal;
      goalInput.value = v.goal;
      state.nodes = v.json_output;
      state.latest = v.version;
      editor.set(state.nodes);
      if (state.mode === 'json') jsonEl.value = pretty(current());
      loadVersions();
      drawTriggers();
    } catch (e) {
      topErrors.append(errorBox(e));
    }
  };

  const del = h('button', { type: 'button', class: 'danger small', id: 'delete-script', hidden: !name, onclick: async () => {
    if (!window.confirm(`Delete the script ${state.name} and all its versions?`)) return;
    try { await api('DELETE', `/scripts/${enc(state.name)}`); location.hash = '#/scripts'; } catch (e) { topErrors.append(errorBox(e)); }
  } }, 'Delete script');

  replace(main,
    h('div', { class: 'page-head' }, h('h1', {}, name ? name : 'New script'), h('div', { class: 'actions' }, del)),
    h('div', { class: 'head-fields card' },
      h('label', { for: 'script-name' }, 'Name'), nameInput,
      h('label', { for: 'script-goal' }, 'Goal'), goalInput),
    topErrors,
    h('div', { class: 'tabs', role: 'tablist' }, tabForm, tabJSON),
    formEl, jsonEl, jsonNote,
    h('div', { class: 'save-row' }, h('button', { type: 'button', class: 'primary', id: 'save-script', onclick: () => save() }, 'Save'), saved,
      h('span', { class: 'muted small' }, 'Ctrl+S saves too')),
    runBox, triggers, moreTriggers, versions);

  // Ctrl+S (⌘S) saves from anywhere on the page.
  main.addEventListener('keydown', (ev) => {
    if ((ev.ctrlKey || ev.metaKey) && ev.key === 's') { ev.preventDefault(); save(); }
  });
  nodeSpecs().then((specs) => {
    editor = new Editor(formEl, specs, (nodes) => { state.nodes = nodes; });
    editor.set(state.nodes);
    if (name) load(); else nameInput.focus();
  }).catch((e) => topErrors.append(errorBox(e)));
}

function showDiff(box, from, to, a, b) {
  const lines = diffLines(a, b);
  const changed = lines.some((l) => l.op !== ' ');
  replace(box, h('h3', {}, `From ${from} to ${to}`),
    changed ? h('pre', { class: 'diff', 'aria-label': 'Differences' }, lines.map((l) => h('span', { class: l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same' }, `${l.op} ${l.line}\n`)))
      : h('p', { class: 'muted' }, 'No differences.'));
}
