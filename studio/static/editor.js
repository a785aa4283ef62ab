// editor.js: the script form, built entirely from GET /nodes: each node kind's parameters with
// their types, descriptions, defaults and examples, `nodes` parameters (then / else / do) as
// nested lists. The form edits a plain array of node objects, the same JSON the API takes, so
// the JSON view and the form are two views of one value.

import { h, replace } from './dom.js';

// Fields every node accepts besides its kind's own (docs/API.md).
export const genericParams = [
  { name: 'timeout', type: 'number', description: 'this node’s time limit in seconds (overrides the kind’s default)' },
  { name: 'continue_on_error', type: 'boolean', description: 'carry on with the next node when this one fails' },
  { name: 'id', type: 'string', description: 'a name for this node' },
  { name: 'comment', type: 'string', description: 'a note for people; rodeo ignores it' },
];

const longText = new Set(['code', 'command', 'text', 'body', 'prompt', 'input', 'description']);

// initial is the value a newly added parameter starts with.
function initial(p) {
  if (p.default !== undefined) return structuredClone(p.default);
  switch (p.type) {
    case 'nodes': return [];
    case 'boolean': return false;
    case 'array': return [];
    case 'object': return {};
    case 'number': return p.min !== undefined ? p.min : 0;
    default: return '';
  }
}

// newNode is a node of the kind with its required parameters.
export function newNode(spec) {
  const n = { type: spec.type };
  for (const p of spec.params) if (p.required) n[p.name] = initial(p);
  return n;
}

// errorsByPath groups the server's details by node path ("2", "3.then.0") and field. A nested
// node's problem arrives as {node: 3, field: "3.then.0: target"}.
export function errorsByPath(details) {
  const out = new Map();
  for (const d of details || []) {
    if (d.node === undefined || d.node === null) continue;
    let path = String(d.node);
    let field = d.field || '';
    const m = field.match(/^(\d+(?:\.[A-Za-z_]+\.\d+)+): ?(.*)$/);
    if (m) { path = m[1]; field = m[2]; }
    if (!out.has(path)) out.set(path, []);
    out.get(path).push({ field, problem: d.problem });
  }
  return out;
}

// Editor renders nodes into el and calls onChange after every edit.
export class Editor {
  constructor(el, specs, onChange) {
    this.el = el;
    this.specs = specs;
    this.byKind = new Map();
    for (const s of specs) {
      this.byKind.set(norm(s.type), s);
      for (const a of s.aliases || []) this.byKind.set(norm(a), s);
    }
    this.onChange = onChange || (() => {});
    this.nodes = [];
    this.errors = new Map();
  }

  spec(type) { return this.byKind.get(norm(type || '')); }

  set(nodes) { this.nodes = nodes; this.render(); }

  showErrors(details) { this.errors = errorsByPath(details); this.render(); }

  changed() { this.onChange(this.nodes); }

  render(focus) {
    replace(this.el, this.list(this.nodes, ''));
    if (focus) {
      const f = this.el.querySelector(focus);
      if (f) f.focus();
    }
  }

  // list renders one list of nodes; prefix is the path of the list ("" or "3.then.").
  list(nodes, prefix) {
    const add = this.kindSelect('', `Add a node${prefix ? ' here' : ''}…`);
    add.classList.add('add-node');
    add.setAttribute('aria-label', prefix ? `Add a node to ${prefix.slice(0, -1)}` : 'Add a node');
    add.addEventListener('change', () => {
      const s = this.spec(add.value);
      if (!s) return;
      nodes.push(newNode(s));
      this.changed();
      this.render(`[data-path="${prefix}${nodes.length - 1}"] .field input, [data-path="${prefix}${nodes.length - 1}"] .field textarea`);
    });
    return h('div', { class: 'node-list' },
      h('ol', {}, nodes.map((n, i) => this.card(nodes, i, prefix))),
      add);
  }

  kindSelect(current, placeholder) {
    const groups = new Map();
    for (const s of this.specs) {
      if (!groups.has(s.category)) groups.set(s.category, []);
      groups.get(s.category).push(s);
    }
    const known = !current || this.spec(current);
    return h('select', {},
      placeholder ? h('option', { value: '' }, placeholder) : null,
      known ? null : h('option', { value: current, selected: true }, `${current} (unknown kind)`),
      [...groups].map(([cat, list]) => h('optgroup', { label: cat },
        list.map((s) => h('option', { value: s.type, selected: current && this.spec(current) === s }, s.type)))));
  }

  card(nodes, i, prefix) {
    const node = nodes[i];
    const path = `${prefix}${i}`;
    const spec = this.spec(node.type);
    const errors = this.errors.get(path) || [];
    const shown = new Set();
    const typeSel = this.kindSelect(node.type);
    typeSel.setAttribute('aria-label', `Kind of node ${path}`);
    typeSel.classList.add('node-type');
    typeSel.addEventListener('change', () => {
      const s = this.spec(typeSel.value);
      if (!s) return;
      // Keep the values the new kind also has; add its required ones.
      const next = newNode(s);
      for (const [k, v] of Object.entries(node)) if (k !== 'type' && (s.params.some((p) => p.name === k) || genericParams.some((p) => p.name === k))) next[k] = v;
      nodes[i] = next;
      this.changed();
      this.render(`[data-path="${path}"] .node-type`);
    });
    const act = (name, label, fn, disabled) => h('button', { type: 'button', class: 'small ghost', 'data-act': name, 'aria-label': `${label} node ${path}`, title: label, disabled, onclick: () => fn() }, {
      up: '↑', down: '↓', dup: 'Duplicate', del: 'Delete' }[name]);
    const move = (d) => {
      const [n] = nodes.splice(i, 1);
      nodes.splice(i + d, 0, n);
      this.errors = new Map();
      this.changed();
      this.render(`[data-path="${prefix}${i + d}"] [data-act="${d < 0 ? 'up' : 'down'}"]`);
    };
    const fields = [];
    const params = spec ? spec.params : [];
    for (const p of [...params, ...genericParams]) {
      // A parameter the server names in an error is shown, so the error has its field.
      if (p.required || Object.prototype.hasOwnProperty.call(node, p.name) || errors.some((e) => e.field === p.name)) {
        shown.add(p.name);
        fields.push(this.field(node, p, path, errors));
      }
    }
    // Keys the kind doesn't have stay visible, so the server's "unknown parameter" has a home.
    for (const k of Object.keys(node)) {
      if (k === 'type' || shown.has(k)) continue;
      shown.add(k);
      fields.push(this.field(node, { name: k, type: 'any', description: spec ? `not a parameter of ${spec.type}: remove it or fix its name` : '' }, path, errors, true));
    }
    const optional = [...params, ...genericParams].filter((p) => !shown.has(p.name));
    const addParam = optional.length ? h('select', { class: 'add-param', 'aria-label': `Add a parameter to node ${path}` },
      h('option', { value: '' }, '+ parameter…'),
      optional.map((p) => h('option', { value: p.name }, `${p.name} (${p.type})`))) : null;
    if (addParam) {
      addParam.addEventListener('change', () => {
        const p = optional.find((q) => q.name === addParam.value);
        if (!p) return;
        node[p.name] = initial(p);
        this.changed();
        this.render(`[data-path="${path}"] [data-field="${p.name}"] input, [data-path="${path}"] [data-field="${p.name}"] textarea, [data-path="${path}"] [data-field="${p.name}"] select`);
      });
    }
    const nodeErrors = errors.filter((e) => !shown.has(e.field) || e.field === 'type');
    return h('li', { class: `node${errors.length ? ' has-error' : ''}`, 'data-path': path },
      h('div', { class: 'node-head' },
        h('span', { class: 'node-no' }, prefix ? path : `${i + 1}`), typeSel,
        h('span', { class: 'node-actions' },
          act('up', 'Move up', () => move(-1), i === 0),
          act('down', 'Move down', () => move(1), i === nodes.length - 1),
          act('dup', 'Duplicate', () => { nodes.splice(i + 1, 0, structuredClone(node)); this.changed(); this.render(`[data-path="${prefix}${i + 1}"] .node-type`); }),
          act('del', 'Delete', () => { nodes.splice(i, 1); this.errors = new Map(); this.changed(); this.render(); }))),
      spec ? h('p', { class: 'node-summary muted' }, spec.summary) : null,
      nodeErrors.map((e) => h('p', { class: 'field-error', role: 'alert' }, e.field ? `${e.field}: ${e.problem}` : e.problem)),
      h('div', { class: 'fields' }, fields),
      addParam);
  }

  field(node, p, path, errors, stray) {
    const id = `f-${path.replace(/\./g, '-')}-${p.name}`;
    const errs = errors.filter((e) => e.field === p.name);
    const hints = [];
    if (p.default !== undefined) hints.push(`default ${JSON.stringify(p.default)}`);
    if (p.example !== undefined && p.type !== 'nodes') hints.push(`e.g. ${JSON.stringify(p.example)}`);
    if (p.template) hints.push('{{variables}} allowed');
    const remove = p.required ? null : h('button', { type: 'button', class: 'small ghost remove-param', 'aria-label': `Remove ${p.name}`, title: 'Remove this parameter', onclick: () => {
      delete node[p.name]; this.changed(); this.render();
    } }, '×');
    const control = p.type === 'nodes' ? this.list(Array.isArray(node[p.name]) ? node[p.name] : (node[p.name] = []), `${path}.${p.name}.`) : this.input(node, p, id, errs.length > 0);
    return h('div', { class: `field${errs.length ? ' invalid' : ''}${p.type === 'nodes' ? ' nested' : ''}${stray ? ' stray' : ''}`, 'data-field': p.name },
      h('div', { class: 'field-label' },
        h('label', { for: p.type === 'nodes' ? null : id }, p.name, p.required ? h('span', { class: 'req', title: 'required' }, ' *') : null),
        h('span', { class: 'type' }, p.type), remove),
      control,
      errs.map((e) => h('p', { class: 'field-error', role: 'alert', id: `${id}-err` }, e.problem)),
      p.description || hints.length ? h('p', { class: 'field-help muted' }, p.description, hints.length ? h('span', { class: 'hints' }, ` (${hints.join('; ')})`) : null) : null);
  }

  input(node, p, id, invalid) {
    const v = node[p.name];
    const common = { id, name: p.name, 'aria-invalid': invalid ? 'true' : null, 'aria-describedby': invalid ? `${id}-err` : null };
    const set = (val) => { node[p.name] = val; this.changed(); };
    if (p.type === 'boolean') {
      return h('input', { ...common, type: 'checkbox', checked: v === true, onchange: (ev) => set(ev.target.checked) });
    }
    if (p.enum && p.enum.length) {
      return h('select', { ...common, onchange: (ev) => set(ev.target.value) },
        p.enum.includes(v) ? null : h('option', { value: v ?? '', selected: true }, v ?? ''),
        p.enum.map((e) => h('option', { value: e, selected: e === v }, e)));
    }
    if (p.type === 'number') {
      return h('input', { ...common, type: 'text', inputmode: 'decimal', value: v ?? '', placeholder: p.example !== undefined ? String(p.example) : '',
        oninput: (ev) => { const t = ev.target.value.trim(); set(/^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t); } });
    }
    if (p.type === 'string') {
      const text = typeof v === 'string' ? v : (v === undefined ? '' : JSON.stringify(v));
      const attrs = { ...common, value: text, placeholder: p.example !== undefined ? String(p.example) : '', spellcheck: 'false', oninput: (ev) => set(ev.target.value) };
      return p.code || longText.has(p.name) || text.includes('\n') ? h('textarea', { ...attrs, rows: p.code ? 6 : 2, class: p.code ? 'code' : '' }) : h('input', { ...attrs, type: 'text' });
    }
    // array, object, any: JSON text; a bare word for `any` is taken as a string.
    const text = v === undefined ? '' : (p.type === 'any' && typeof v === 'string' ? v : JSON.stringify(v));
    const note = h('span', { class: 'json-note muted small' });
    const parse = (t) => {
      try { note.textContent = ''; return JSON.parse(t); } catch {
        if (p.type === 'any') return t;
        note.textContent = 'not valid JSON yet';
        return t;
      }
    };
    const example = p.example !== undefined ? (typeof p.example === 'string' && p.type === 'any' ? p.example : JSON.stringify(p.example)) : '';
    const el = p.type === 'any'
      ? h('input', { ...common, type: 'text', value: text, placeholder: example, spellcheck: 'false', oninput: (ev) => set(parse(ev.target.value)) })
      : h('textarea', { ...common, rows: 2, class: 'code', value: text, placeholder: example, spellcheck: 'false', oninput: (ev) => set(parse(ev.target.value)) });
    return h('span', { class: 'json-input' }, el, note);
  }
}

function norm(s) { return s.toLowerCase().replace(/[\s_-]+/g, ''); }
