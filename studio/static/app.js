// app.js: the studio's shell: sign-in, navigation and the hash router (#/runs, #/scripts/NAME, …).
// Routes live in the fragment so the server serves one page and the key never enters a URL.

import { h, replace } from './dom.js';
import { session, get, whenUnauthorized } from './api.js';
import { runsView, runView } from './runs.js';
import { scriptsView, scriptView } from './scripts.js';
import { nodesView } from './catalogue.js';
import { sheetsView, sheetView, outboxView, outboxMessageView, keysView } from './data.js';

const routes = [
  [/^\/runs$/, runsView, 'runs'],
  [/^\/runs\/([^/]+)$/, runView, 'runs'],
  [/^\/scripts$/, scriptsView, 'scripts'],
  [/^\/scripts\/new$/, (el) => scriptView(el, null), 'scripts'],
  [/^\/scripts\/(.+)$/, scriptView, 'scripts'],
  [/^\/nodes$/, nodesView, 'nodes'],
  [/^\/nodes\/(.+)$/, nodesView, 'nodes'],
  [/^\/sheets$/, sheetsView, 'sheets'],
  [/^\/sheets\/([^/]+)$/, sheetView, 'sheets'],
  [/^\/outbox$/, outboxView, 'outbox'],
  [/^\/outbox\/([^/]+)$/, outboxMessageView, 'outbox'],
  [/^\/keys$/, keysView, 'keys'],
];

const nav = [['runs', 'Runs'], ['scripts', 'Scripts'], ['nodes', 'Nodes'], ['sheets', 'Sheets'], ['outbox', 'Outbox'], ['keys', 'Keys']];

const root = document.getElementById('app');
let cleanup = null;
let signInNotice = '';

function stopView() {
  if (cleanup) { try { cleanup(); } catch { /* the view is gone either way */ } }
  cleanup = null;
}

function signInView() {
  stopView();
  const input = h('input', { id: 'key', type: 'password', name: 'key', autocomplete: 'off', spellcheck: 'false', placeholder: 'rk_…', required: true, 'aria-describedby': 'signin-msg' });
  const msg = h('p', { id: 'signin-msg', class: signInNotice ? 'error-box' : 'hint', role: 'status' },
    signInNotice || 'rodeo prints a key once when it first starts; `rodeo keys create` makes another.');
  const button = h('button', { type: 'submit', class: 'primary', text: 'Sign in' });
  const form = h('form', { class: 'signin card', onsubmit: async (ev) => {
    ev.preventDefault();
    const key = input.value.trim();
    if (!key) return;
    button.disabled = true;
    session.signIn(key);
    try {
      await get('/runs?limit=1', { quiet401: true });
      signInNotice = '';
      if (!location.hash || location.hash === '#/') location.hash = '#/runs';
      render();
    } catch (e) {
      session.signOut();
      msg.className = 'error-box';
      msg.textContent = e.status === 401
        ? 'That key was not accepted. Check that you copied the whole key (it starts with rk_) and that it has not been revoked.'
        : e.message;
      button.disabled = false;
      input.select();
    }
  } },
  h('h1', {}, h('span', { class: 'logo' }, 'rodeo'), ' studio'),
  h('label', { for: 'key' }, 'API key'), input, msg, button);
  replace(root, h('main', { class: 'signin-page' }, form));
  input.focus();
}

function shell(active) {
  const links = nav.map(([id, label]) => h('a', { href: `#/${id}`, class: id === active ? 'active' : '', 'aria-current': id === active ? 'page' : null, text: label }));
  const out = h('button', { type: 'button', class: 'small ghost', text: 'Sign out', onclick: () => { session.signOut(); signInNotice = ''; location.hash = ''; render(); } });
  const main = h('main', { id: 'main', tabindex: '-1' });
  replace(root,
    h('header', { class: 'top' },
      h('a', { href: '#/runs', class: 'logo', text: 'rodeo' }),
      h('nav', { 'aria-label': 'Studio' }, links),
      out),
    main);
  return main;
}

function render() {
  if (!session.key()) { signInView(); return; }
  const path = (location.hash || '#/runs').slice(1) || '/runs';
  stopView();
  for (const [re, view, section] of routes) {
    const m = path.match(re);
    if (m) {
      const main = shell(section);
      const args = m.slice(1).map(decodeURIComponent);
      const result = view(main, ...args);
      cleanup = typeof result === 'function' ? result : null;
      return;
    }
  }
  location.hash = '#/runs';
}

whenUnauthorized(() => {
  session.signOut();
  signInNotice = 'Your key stopped working (revoked?). Sign in again.';
  render();
});

window.addEventListener('hashchange', render);
render();
