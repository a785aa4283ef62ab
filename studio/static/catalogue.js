// catalogue.js: the node catalogue from GET /nodes (fetched once per page load and shared with
// the script editor), with every kind's parameters and examples.

import { h, replace, pretty, errorBox } from './dom.js';
import { get, enc } from './api.js';

let specs = null;

// nodeSpecs answers the registry's node specs, sorted by kind.
export function nodeSpecs() {
  if (!specs) specs = get('/nodes').then((d) => d.nodes).catch((e) => { specs = null; throw e; });
  return specs;
}

export function nodesView(main, selected) {
  const filter = h('input', { id: 'node-filter', type: 'search', placeholder: 'Filter by name, category or words', 'aria-label': 'Filter nodes' });
  const list = h('div', { class: 'catalogue' });
  replace(main, h('div', { class: 'page-head' }, h('h1', {}, 'Nodes'), filter), list);
  nodeSpecs().then((all) => {
    const draw = () => {
      const q = filter.value.trim().toLowerCase();
      const shown = all.filter((s) => !q || [s.type, s.category, s.summary, ...(s.aliases || [])].join(' ').toLowerCase().includes(q));
      replace(list, shown.map((s) => nodeCard(s, s.type === selected)));
    };
    filter.addEventListener('input', draw);
    draw();
    if (selected) {
      const el = list.querySelector(`[data-kind="${CSS.escape(selected)}"]`);
      if (el) el.scrollIntoView();
    }
  }).catch((e) => replace(list, errorBox(e)));
}

function nodeCard(s, open) {
  return h('details', { class: 'card node-doc', 'data-kind': s.type, open },
    h('summary', {}, h('strong', {}, s.type), ' ', h('span', { class: 'badge' }, s.category), s.browser ? h('span', { class: 'badge' }, 'browser') : null,
      h('span', { class: 'muted' }, ` ${s.summary}`)),
    s.aliases && s.aliases.length ? h('p', { class: 'muted small' }, `Also written: ${s.aliases.join(', ')}`) : null,
    h('div', { class: 'table-wrap' }, h('table', {},
      h('thead', {}, h('tr', {}, ['Parameter', 'Type', 'Required', 'Default', 'Description'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, s.params.map((p) => h('tr', {},
        h('td', {}, h('code', {}, p.name)), h('td', {}, p.type + (p.enum ? `: ${p.enum.join(' | ')}` : '')),
        h('td', {}, p.required ? 'yes' : ''), h('td', {}, p.default !== undefined ? h('code', {}, JSON.stringify(p.default)) : ''),
        h('td', {}, p.description, p.example !== undefined && p.type !== 'nodes' ? h('div', { class: 'muted small' }, 'e.g. ', h('code', {}, JSON.stringify(p.example))) : null)))))),
    s.examples && s.examples.length ? [h('h4', {}, 'Example'), h('pre', { class: 'json' }, s.examples.map(pretty).join('\n'))] : null,
    h('p', { class: 'small' }, h('a', { href: `#/nodes/${enc(s.type)}` }, 'Link to this node')));
}
