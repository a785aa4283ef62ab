// snapshot.js collects, in one pass over the DOM (open shadow roots and same-origin iframes
// included), the interactive and text-bearing elements rodeo's ranker needs. It reads only: no
// attribute, node or style is written, so a MutationObserver sees nothing. The live elements are kept
// in a page-side array under a non-enumerable window property (KEY) so Handle can fetch them later.
// It returns a JSON string (cheaper to move and decode than a by-value object tree).
function (KEY) {
  const MAXN = 200, MAXT = 300, MAXDEPTH = 512;
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'BR', 'HR', 'WBR', 'PARAM', 'SOURCE', 'TRACK', 'OPTION', 'OPTGROUP', 'DATALIST']);
  const INLINE = new Set(['B', 'I', 'EM', 'STRONG', 'SPAN', 'A', 'SMALL', 'CODE', 'SUP', 'SUB', 'MARK', 'U', 'S', 'ABBR', 'LABEL', 'FONT', 'Q', 'CITE', 'KBD', 'VAR', 'TIME', 'BDI', 'BDO', 'DEL', 'INS', 'DFN', 'DATA']);
  const TEXTTAGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'TD', 'TH', 'LABEL', 'LEGEND', 'CAPTION', 'DT', 'DD', 'FIGCAPTION', 'P', 'OUTPUT', 'BLOCKQUOTE', 'PRE']);
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'switch', 'slider', 'spinbutton', 'treeitem', 'gridcell']);
  const LANDMARKS = {NAV: 'navigation', HEADER: 'header', FOOTER: 'footer', ASIDE: 'sidebar', MAIN: '', FORM: 'form', SECTION: '', ARTICLE: '', DIALOG: 'dialog', FIELDSET: '', TABLE: 'table'};
  const LANDMARK_ROLES = {navigation: 'navigation', banner: 'header', contentinfo: 'footer', complementary: 'sidebar', dialog: 'dialog', alertdialog: 'dialog', form: 'form', region: '', search: 'search', menu: 'menu', menubar: 'menu', tablist: 'tabs', toolbar: 'toolbar', list: '', grid: 'table', table: 'table'};
  const TEXT_INPUTS = new Set(['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number', 'date', 'datetime-local', 'month', 'week', 'time']);

  const POINTERTAGS = new Set(['DIV', 'SPAN', 'LI', 'I', 'IMG', 'svg', 'P']);
  const r1 = v => Math.round(v * 10) / 10;
  const ws = s => (s || '').replace(/\s+/g, ' ').trim();
  const cap = (s, n) => s.length > n ? s.slice(0, n) : s;

  // text returns the rendered-ish text of el's subtree (alt of images and aria-label of icons when
  // forName), spaces at block boundaries, stopping early once max characters are collected.
  function text(el, max, forName) {
    let out = '';
    const walk = n => {
      for (let c = n.firstChild; c && out.length < max; c = c.nextSibling) {
        if (c.nodeType === 3) { out += c.data; continue; }
        if (c.nodeType !== 1 || SKIP.has(c.tagName)) continue;
        if (c.hidden || c.getAttribute('aria-hidden') === 'true') continue;
        if (forName) {
          const al = c.getAttribute('aria-label');
          if (al) { out += ' ' + al + ' '; continue; }
          if (c.tagName === 'IMG') { out += ' ' + (c.getAttribute('alt') || '') + ' '; continue; }
        }
        if (c.tagName === 'svg' || c.tagName === 'SVG' || c.tagName === 'SELECT' || c.tagName === 'TEXTAREA') continue;
        const block = !INLINE.has(c.tagName);
        if (block) out += ' ';
        if (c.shadowRoot) walk(c.shadowRoot);
        walk(c);
        if (block) out += ' ';
      }
    };
    walk(el);
    return cap(ws(out), max);
  }

  // isEditableRoot: the element starts a contenteditable region (reading the attribute is far
  // cheaper than isContentEditable, which computes style).
  function isEditableRoot(el) {
    const v = el.getAttribute('contenteditable');
    return v !== null && v !== 'false' && el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
  }

  function ownText(el) {
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3 && /\S/.test(c.data)) return true;
    }
    return false;
  }

  function byIDs(el, attr) {
    const ids = (el.getAttribute(attr) || '').split(/\s+/).filter(Boolean);
    if (!ids.length) return '';
    const root = el.getRootNode();
    return ws(ids.map(id => {
      const t = root.getElementById ? root.getElementById(id) : root.querySelector('#' + CSS.escape(id));
      return t ? (t.getAttribute('aria-label') || text(t, MAXN, true)) : '';
    }).join(' '));
  }

  function implicitRole(el, tag, type) {
    switch (tag) {
      case 'A': return el.hasAttribute('href') ? 'link' : 'text';
      case 'BUTTON': case 'SUMMARY': return 'button';
      case 'INPUT':
        if (type === 'checkbox') return 'checkbox';
        if (type === 'radio') return 'radio';
        if (type === 'range') return 'slider';
        if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
        if (type === 'search') return 'searchbox';
        return TEXT_INPUTS.has(type) ? 'textbox' : 'textbox';
      case 'TEXTAREA': return 'textbox';
      case 'SELECT': return el.multiple ? 'listbox' : 'combobox';
      case 'IMG': return 'img';
      case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
      case 'LI': return 'listitem';
      case 'TD': return 'cell';
      case 'TH': return 'columnheader';
      case 'TR': return 'row';
      case 'LABEL': return 'label';
      case 'DIALOG': return 'dialog';
      case 'OUTPUT': return 'status';
      case 'NAV': return 'navigation';
      case 'P': return 'paragraph';
      case 'svg': case 'SVG': return 'img';
    }
    return isEditableRoot(el) ? 'textbox' : 'text';
  }

  // Landmark/fieldset/dialog label, memoized per container.
  const labelMemo = new Map();
  function containerLabel(el, tag, role) {
    if (labelMemo.has(el)) return labelMemo.get(el);
    let kind = LANDMARK_ROLES[role];
    if (kind === undefined) kind = LANDMARKS[tag];
    let v = null;
    if (kind !== undefined) {
      let l = el.getAttribute('aria-label') || byIDs(el, 'aria-labelledby');
      if (!l && tag === 'FIELDSET') { const lg = el.querySelector(':scope > legend'); if (lg) l = text(lg, 80, false); }
      if (!l && tag === 'TABLE') { const cp = el.querySelector(':scope > caption'); if (cp) l = text(cp, 80, false); }
      if (!l && tag !== 'TABLE') { const h = el.querySelector('h1,h2,h3,h4,h5,h6,[role=heading]'); if (h) l = text(h, 80, false); }
      v = ws((kind + ' ' + (l || '')));
    }
    labelMemo.set(el, v);
    return v;
  }

  function colHeader(cell) {
    const row = cell.parentElement, table = cell.closest('table');
    if (!row || !table) return '';
    let col = 0;
    for (let c = row.firstElementChild; c && c !== cell; c = c.nextElementSibling) col += c.colSpan || 1;
    const hrow = table.tHead ? table.tHead.rows[0] : table.rows[0];
    if (!hrow || hrow === row) return '';
    let i = 0;
    for (let c = hrow.firstElementChild; c; c = c.nextElementSibling) {
      if (i === col || (i < col && i + (c.colSpan || 1) > col)) return c.tagName === 'TH' ? text(c, 60, false) : '';
      i += c.colSpan || 1;
    }
    return '';
  }

  // Modal: elements outside an open modal dialog are covered.
  let modal = null;
  try { modal = document.querySelector('dialog:modal'); } catch (e) { /* old engines */ }
  if (!modal) {
    for (const m of document.querySelectorAll('[aria-modal="true"]')) {
      if (m.checkVisibility()) { modal = m; break; }
    }
  }

  const els = [], out = [], strs = [], strIdx = new Map();
  const intern = v => { let i = strIdx.get(v); if (i === undefined) { i = strs.length; strs.push(v); strIdx.set(v, i); } return i; };
  let prevSel = '';
  const idCount = new Map();
  const countIDs = root => { for (const e of root.querySelectorAll('[id]')) idCount.set(e.id, (idCount.get(e.id) || 0) + 1); };
  countIDs(document);

  // Headings in force: a heading names what follows it inside its parent (its section).
  const headings = [];

  // walk visits el's children. sel is el's selector, shape its tag path, ctxs the container
  // labels in force, parent the snapshot index of the nearest included ancestor.
  function walkChildren(node, sel, shape, ctxs, parent, ox, oy, scope, depth, cell, covered, inFrame) {
    const seen = {};
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
      const tag = c.tagName;
      const lower = tag.toLowerCase();
      seen[tag] = (seen[tag] || 0) + 1;
      if (SKIP.has(tag) || depth > MAXDEPTH || c.hidden) continue;
      const id = c.id;
      const csel = id && idCount.get(id) === 1 ? scope + '#' + CSS.escape(id) : sel + ' > ' + lower + ':nth-of-type(' + seen[tag] + ')';
      const cshape = shape.length > 120 ? shape.slice(shape.indexOf('>', 40) + 1) + '>' + lower : shape + '>' + lower;
      visit(c, tag, lower, csel, cshape, ctxs, parent, ox, oy, scope, depth, cell, covered, inFrame);
    }
  }

  function visit(el, tag, lower, sel, shape, ctxs, parent, ox, oy, scope, depth, cell, covered, inFrame) {
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
    const type = tag === 'INPUT' ? (el.getAttribute('type') || '').toLowerCase() : '';
    if (type === 'hidden') return;
    if (modal && el === modal) covered = false;

    const cl = containerLabel(el, tag, role);
    if (cl) ctxs = ctxs.concat([cl]);
    if (tag === 'TD' || tag === 'TH') cell = el;

    const r = implicitRole(el, tag, type);
    const fullRole = role && role !== 'presentation' && role !== 'none' && role !== 'generic' ? role : r;
    const isHeading = fullRole === 'heading';
    const ariaLabel = el.getAttribute('aria-label') || '';
    const title = el.getAttribute('title') || '';
    const alt = tag === 'IMG' || tag === 'AREA' || type === 'image' ? (el.getAttribute('alt') || '') : '';
    const tabindex = el.getAttribute('tabindex');
    const formControl = tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON';
    let interactive = formControl || (tag === 'A' && el.hasAttribute('href')) || tag === 'SUMMARY' ||
      INTERACTIVE_ROLES.has(fullRole) || isEditableRoot(el) ||
      (tabindex !== null && +tabindex >= 0) || el.hasAttribute('onclick') || (tag === 'LABEL' && !!el.control);
    const own = ownText(el);
    let include = interactive || own || TEXTTAGS.has(tag) || (role && role !== 'presentation' && role !== 'none') ||
      !!ariaLabel || tag === 'IMG' || ((tag === 'svg' || tag === 'SVG') && !!(ariaLabel || el.querySelector('title')));
    let rect = null;
    if (include) {
      rect = el.getBoundingClientRect();
      // No box: display:none subtrees are skipped (display:contents has no box but its children do).
      if ((rect.width === 0 || rect.height === 0) && !el.checkVisibility()) {
        if (getComputedStyle(el).display !== 'contents') return;
        include = false;
      }
    }
    let cursorPointer = false;
    if (include && !interactive && own && POINTERTAGS.has(tag)) {
      // Clickable divs and spans: a pointer cursor that is not merely inherited.
      const cur = getComputedStyle(el).cursor;
      if (cur === 'pointer') {
        const p = el.parentElement;
        cursorPointer = !p || getComputedStyle(p).cursor !== 'pointer';
        interactive = cursorPointer;
      }
    }

    let idx = parent;
    if (include) {
      idx = els.length;
      els.push(el);
      // Wire form (see wire in snap.go): shapes and contexts are interned, selectors share their
      // prefix with the previous element's, visible/enabled are sent only when false.
      const e = {id: idx, tag: lower, role: fullRole, parent: parent, sh: intern(shape)};
      let sp = 0;
      const lim = Math.min(sel.length, prevSel.length);
      while (sp < lim && sel.charCodeAt(sp) === prevSel.charCodeAt(sp)) sp++;
      if (sp > 0) e.sp = sp;
      e.sel = sel.slice(sp);
      prevSel = sel;
      e.box = {x: r1(rect.x + ox), y: r1(rect.y + oy), w: r1(rect.width), h: r1(rect.height)};
      if (!(rect.width > 0 && rect.height > 0 && el.checkVisibility({visibilityProperty: true, opacityProperty: true}))) e.hd = 1;
      const disabled = (formControl && el.matches(':disabled')) || el.getAttribute('aria-disabled') === 'true' || (tag === 'LABEL' && !!el.control && el.control.disabled);
      if (disabled) e.ds = 1;
      if (type === 'checkbox' || type === 'radio') e.checked = el.checked;
      else if (el.getAttribute('aria-checked') === 'true' || el.getAttribute('aria-pressed') === 'true' || (fullRole === 'tab' && el.getAttribute('aria-selected') === 'true')) e.checked = true;
      const textual = (tag === 'INPUT' && TEXT_INPUTS.has(type)) || tag === 'TEXTAREA';
      e.editable = !disabled && ((textual && !el.readOnly) || isEditableRoot(el));
      e.interactive = interactive;
      if (covered) e.covered = true;
      if (inFrame) e.in_frame = true;

      let label = '';
      if (el.labels && el.labels.length) label = ws(Array.from(el.labels, l => text(l, MAXN, true)).join(' '));
      const labelledby = byIDs(el, 'aria-labelledby');
      const placeholder = el.getAttribute('placeholder') || '';
      let t = '';
      if (tag === 'SELECT') { const o = el.selectedOptions && el.selectedOptions[0]; t = o ? ws(o.textContent) : ''; }
      else if (!formControl || tag === 'BUTTON') t = text(el, MAXT, false);
      if (!label && textual && !labelledby && !ariaLabel && !placeholder && !title) {
        // An unlabeled field: the short text just before it often names it.
        const prev = el.previousElementSibling;
        if (prev && !prev.matches('input,select,textarea,button')) { const pt = text(prev, 60, false); if (pt.length <= 40) label = pt; }
      }
      let value = '';
      if (tag === 'INPUT' || tag === 'TEXTAREA') value = type === 'password' ? (el.value ? '***' : '') : cap(el.value || '', MAXN);
      else if (tag === 'SELECT') value = t;
      let name = labelledby || ariaLabel || label;
      if (!name && alt) name = alt;
      if (!name && (tag === 'svg' || tag === 'SVG')) { const st = el.querySelector('title'); if (st) name = st.textContent; }
      if (!name && title) name = title;
      if (!name && placeholder) name = placeholder;
      if (!name && tag === 'INPUT' && ['button', 'submit', 'reset'].includes(type)) name = value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      if (!name && !textual && tag !== 'SELECT') name = (interactive || isHeading || fullRole === 'label') ? text(el, MAXN, true) : t;
      e.name = cap(ws(name), MAXN);
      if (t && t !== e.name) e.text = t;
      else if (t) e.ts = 1;
      if (label) e.label = cap(label, MAXN);
      if (placeholder) e.placeholder = cap(ws(placeholder), MAXN);
      if (ariaLabel) e.aria_label = cap(ws(ariaLabel), MAXN);
      if (title) e.title = cap(ws(title), MAXN);
      if (alt) e.alt = cap(ws(alt), MAXN);
      if (value) e.value = value;
      if (type) e.input_type = type;
      if (tag === 'A' && el.hasAttribute('href')) e.href = cap(el.getAttribute('href'), 300);
      const na = el.getAttribute('name'); if (na) e.name_attr = cap(na, 100);
      if (el.id) e.id_attr = cap(el.id, 100);
      const cls = typeof el.className === 'string' ? ws(el.className) : ''; if (cls) e['class'] = cap(cls, 100);
      const tid = el.getAttribute('data-testid') || el.getAttribute('data-test') || el.getAttribute('data-qa'); if (tid) e.test_id = cap(tid, 100);

      const parts = [];
      if (cell && cell !== el) { const h = colHeader(cell); if (h) parts.push(h); }
      else if (tag === 'TD') { const h = colHeader(el); if (h) parts.push(h); }
      for (let i = ctxs.length - 1; i >= 0 && parts.length < 3; i--) if (!parts.includes(ctxs[i])) parts.push(ctxs[i]);
      while (headings.length && !headings[headings.length - 1].scope.contains(el)) headings.pop();
      const lastHeading = headings.length ? headings[headings.length - 1].text : '';
      if (lastHeading && parts.length < 4 && !parts.some(p => p.includes(lastHeading))) parts.push(lastHeading);
      if (parts.length) e.cx = intern(cap(parts.join(' | '), 160));
      out.push(e);
      if (isHeading && e.name) headings.push({text: cap(e.name, 80), scope: el.parentNode || el});
    }

    if (tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (el.shadowRoot) {
      countIDs(el.shadowRoot);
      walkChildren(el.shadowRoot, sel + ' >>>', shape, ctxs, idx, ox, oy, sel + ' >>> ', depth + 1, cell, covered, inFrame);
    }
    if (tag === 'IFRAME') {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { /* cross-origin */ }
      if (doc && doc.documentElement) {
        const fr = el.getBoundingClientRect();
        countIDs(doc);
        walkChildren(doc.documentElement, sel + ' >>> html', shape + '>html', ctxs, idx, ox + fr.x + el.clientLeft, oy + fr.y + el.clientTop, sel + ' >>> ', depth + 1, null, covered, true);
      }
      return;
    }
    walkChildren(el, sel, shape, ctxs, idx, ox, oy, scope, depth + 1, cell, covered, inFrame);
  }

  if (document.body) walkChildren(document.body, 'body', 'body', [], -1, 0, 0, '', 0, null, !!modal, false);

  let store = window[KEY];
  if (!store) {
    store = {gen: 0, snaps: new Map()};
    Object.defineProperty(window, KEY, {value: store, enumerable: false, configurable: true, writable: false});
  }
  const gen = ++store.gen;
  store.snaps.set(gen, els);
  for (const g of store.snaps.keys()) if (g <= gen - 8) store.snaps.delete(g);
  return JSON.stringify({url: location.href, title: document.title, gen: gen, strs: strs, elements: out});
}
