// snapshot.js collects, in one pass over the DOM (open shadow roots and same-origin iframes
// included), the interactive and text-bearing elements rodeo's ranker needs. It reads only: no
// attribute, node or style is written, so a MutationObserver sees nothing. The live elements are kept
// in a page-side array under a non-enumerable window property (KEY) so Handle can fetch them later.
//
// Called with KEY, it installs the snapshot function on that property's object once per document
// (later snapshots call it with a short expression, see Snap in snap.go, and V8 keeps its
// optimized code) and returns one snapshot. What an element contributes that depends only on its
// attributes and subtree (role, names, text, container label...) is kept between snapshots and
// dropped by a MutationObserver of the script's own when the DOM changes (see derive); boxes,
// visibility, form state, labels and context are read afresh every time. snapW3(true) derives
// everything again (for tests).
//
// The snapshot is one compact string (the "wire" format, decoded by decodeWire in snap.go): CDP
// moves it, JSON-escaped, through the browser to rod, which costs about 30 µs per KB, so it is
// made of self-delimiting base64 VLQ numbers and length-prefixed strings, with no separators and
// little to escape.
//   number:  base64url digits of 5 bits each, least significant first; digits >= 32 carry on.
//   signed:  a number in zigzag form (0, -1, 1, -2... -> 0, 1, 2, 3...).
//   string:  a number (its length in UTF-16 code units), then the characters.
//   token:   0 and a string (new: it takes the next index in the token table), or index+1. Tags,
//            roles, shapes, contexts and input types are tokens.
//   text:    0 and a string, or the distance back to an earlier use of the same string in the text
//            table; either way the string is appended to the table again, so repeated names stay
//            near and cheap.
//   snapshot: gen, url (string), title (string), count, then count elements.
//   element: bits, tag, role, parent (the element's index minus its parent's, 0 for none), shape,
//            selector (the length shared with the previous element's compact selector, then the
//            rest as a string), box (x, y, w, h in tenths of a pixel, each a signed difference
//            from the previous element's), name (text), then, when their bit is set and in this
//            order: text, href, class, label, name attribute, id attribute, value (texts), input
//            type (token), placeholder, aria-label, title, alt, test id (texts), context (token).
//   bits:    1 context, 2 text same as name, 4 interactive, 8 text, 16 href, 32 class, 64 hidden,
//            128 disabled, 256 editable, 512 checked, 1024 covered, 2048 in frame, 4096 label,
//            8192 name attribute, 16384 id attribute, 32768 value, 65536 input type,
//            131072 placeholder, 262144 aria-label, 524288 title, 1048576 alt, 2097152 test id.
//   compact selector: a selector where "/tag/n" stands for " > tag:nth-of-type(n)" (a tag name has
//            no "/", and CSS.escape escapes every "/" of an id).
function (KEY) {
  let store = window[KEY];
  if (!store) {
    store = {gen: 0, snaps: new Map()};
    Object.defineProperty(window, KEY, {value: store, enumerable: false, configurable: true, writable: false});
  }
  if (!store.snapW3) store.snapW3 = install(store);
  return store.snapW3();

  function install(store) {
  const MAXN = 200, MAXT = 300, MAXDEPTH = 512;
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'BR', 'HR', 'WBR', 'PARAM', 'SOURCE', 'TRACK', 'OPTION', 'OPTGROUP', 'DATALIST']);
  const INLINE = new Set(['B', 'I', 'EM', 'STRONG', 'SPAN', 'A', 'SMALL', 'CODE', 'SUP', 'SUB', 'MARK', 'U', 'S', 'ABBR', 'LABEL', 'FONT', 'Q', 'CITE', 'KBD', 'VAR', 'TIME', 'BDI', 'BDO', 'DEL', 'INS', 'DFN', 'DATA']);
  const TEXTTAGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'TD', 'TH', 'LABEL', 'LEGEND', 'CAPTION', 'DT', 'DD', 'FIGCAPTION', 'P', 'OUTPUT', 'BLOCKQUOTE', 'PRE']);
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'switch', 'slider', 'spinbutton', 'treeitem', 'gridcell']);
  const LANDMARKS = {NAV: 'navigation', HEADER: 'header', FOOTER: 'footer', ASIDE: 'sidebar', MAIN: '', FORM: 'form', SECTION: '', ARTICLE: '', DIALOG: 'dialog', FIELDSET: '', TABLE: 'table'};
  const LANDMARK_ROLES = {navigation: 'navigation', banner: 'header', contentinfo: 'footer', complementary: 'sidebar', dialog: 'dialog', alertdialog: 'dialog', form: 'form', region: '', search: 'search', menu: 'menu', menubar: 'menu', tablist: 'tabs', toolbar: 'toolbar', list: '', grid: 'table', table: 'table'};
  const TEXT_INPUTS = new Set(['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number', 'date', 'datetime-local', 'month', 'week', 'time']);
  const POINTERTAGS = new Set(['DIV', 'SPAN', 'LI', 'I', 'IMG', 'svg', 'P']);

  const WS = /\s+/g, NEEDWS = /^\s|\s$|\s\s|[^\S ]/;
  const ws = s => !s ? '' : NEEDWS.test(s) ? s.replace(WS, ' ').trim() : s;
  const cap = (s, n) => s.length > n ? s.slice(0, n) : s;

  // Wire encoding (see the header).
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const VLQ = [];
  for (let n = 0; n < 1024; n++) VLQ.push(n < 32 ? B64[n] : B64[32 + n % 32] + B64[n >> 5]);
  function u(n) {
    if (n < 1024) return VLQ[n];
    let s = '';
    while (n >= 32) { s += B64[32 + n % 32]; n = Math.floor(n / 32); }
    return s + B64[n];
  }
  const z = n => u(n < 0 ? -2 * n - 1 : 2 * n);
  // Lone surrogates become U+FFFD, as JSON decoding made them before; lengths then agree.
  const str = s => { if (!s.isWellFormed()) s = s.toWellFormed(); return u(s.length) + s; };

  // Per-snapshot state, reset by snap.
  let tokens = null, nTokens = 0, texts = null, nTexts = 0, out = '', prevSel = '', px = 0, py = 0, pw = 0, ph = 0;
  let nItems = 0, nGroups = 0, itemSigs = null;
  let els = null, idCount = null, headings = null, hdrMemo = null, labelMaps = null, rowMemo = null, colMemo = null, modal = null;

  function tok(v) {
    const i = tokens.get(v);
    if (i !== undefined) return u(i + 1);
    tokens.set(v, nTokens++);
    return 'A' + str(v);
  }
  function txt(v) {
    const i = texts.get(v);
    texts.set(v, nTexts);
    if (i === undefined) { nTexts++; return 'A' + str(v); }
    return u(nTexts++ - i);
  }

  // text returns the rendered-ish text of el's subtree (alt of images and aria-label of icons when
  // forName), spaces at block boundaries, stopping early once max characters are collected. With
  // watch, tSpecial tells whether the forName text could differ (an image or aria-label was seen).
  let tOut = '', tMax = 0, tName = false, tWatch = false, tSpecial = false;
  function tWalk(n) {
    for (let c = n.firstChild; c && tOut.length < tMax; c = c.nextSibling) {
      const nt = c.nodeType;
      if (nt === 3) { tOut += c.data; continue; }
      if (nt !== 1) continue;
      const tag = c.tagName;
      if (SKIP.has(tag)) continue;
      if (c.hidden || c.getAttribute('aria-hidden') === 'true') continue;
      if (tName) {
        const al = c.getAttribute('aria-label');
        if (al) { tOut += ' ' + al + ' '; continue; }
        if (tag === 'IMG') { tOut += ' ' + (c.getAttribute('alt') || '') + ' '; continue; }
      } else if (tWatch && (tag === 'IMG' || c.getAttribute('aria-label'))) tSpecial = true;
      if (tag === 'svg' || tag === 'SVG' || tag === 'SELECT' || tag === 'TEXTAREA') continue;
      const block = !INLINE.has(tag);
      if (block) tOut += ' ';
      const sr = c.shadowRoot;
      if (sr) { if (!watched.has(sr)) watchRoot(sr, c); tWalk(sr); }
      tWalk(c);
      if (block) tOut += ' ';
    }
  }
  function text(el, max, forName) {
    tOut = ''; tMax = max; tName = forName; tWatch = false;
    tWalk(el);
    const r = cap(ws(tOut), max);
    tOut = '';
    return r;
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

  function implicitRole(el, tag, type, editRoot) {
    switch (tag) {
      case 'A': return el.hasAttribute('href') ? 'link' : 'text';
      case 'BUTTON': case 'SUMMARY': return 'button';
      case 'INPUT':
        if (type === 'checkbox') return 'checkbox';
        if (type === 'radio') return 'radio';
        if (type === 'range') return 'slider';
        if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return 'button';
        if (type === 'search') return 'searchbox';
        return 'textbox';
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
    return editRoot ? 'textbox' : 'text';
  }

  // Landmark/fieldset/dialog label (each element is visited once: no memo needed).
  function containerLabel(el, tag, role) {
    let kind = LANDMARK_ROLES[role];
    if (kind === undefined) kind = LANDMARKS[tag];
    if (kind === undefined) return null;
    let l = el.getAttribute('aria-label') || byIDs(el, 'aria-labelledby');
    if (!l && tag === 'FIELDSET') { const lg = el.querySelector(':scope > legend'); if (lg) l = text(lg, 80, false); }
    if (!l && tag === 'TABLE') { const cp = el.querySelector(':scope > caption'); if (cp) l = text(cp, 80, false); }
    if (!l && tag !== 'TABLE') { const h = el.querySelector('h1,h2,h3,h4,h5,h6,[role=heading]'); if (h) l = text(h, 80, false); }
    return ws((kind + ' ' + (l || '')));
  }

  // colHeader is the text of a cell's column header, memoized per cell for the snapshot.
  function colHeader(cell) {
    let h = hdrMemo.get(cell);
    if (h === undefined) { h = colHeaderNow(cell); hdrMemo.set(cell, h); }
    return h;
  }
  // The header row of a cell's row (null for none) is memoized per row, and a header row's text
  // per column.
  function colHeaderNow(cell) {
    const row = cell.parentElement;
    if (!row) return '';
    let hrow = rowMemo.get(row);
    if (hrow === undefined) {
      const table = cell.closest('table');
      hrow = table ? (table.tHead ? table.tHead.rows[0] : table.rows[0]) || null : null;
      if (hrow === row) hrow = null;
      rowMemo.set(row, hrow);
    }
    if (!hrow) return '';
    let col = 0;
    for (let c = row.firstElementChild; c && c !== cell; c = c.nextElementSibling) col += c.colSpan || 1;
    let cols = colMemo.get(hrow);
    if (!cols) { cols = []; colMemo.set(hrow, cols); }
    let h = cols[col];
    if (h === undefined) { h = colHeaderText(hrow, col); cols[col] = h; }
    return h;
  }
  function colHeaderText(hrow, col) {
    let i = 0;
    for (let c = hrow.firstElementChild; c; c = c.nextElementSibling) {
      if (i === col || (i < col && i + (c.colSpan || 1) > col)) return c.tagName === 'TH' ? text(c, 60, false) : '';
      i += c.colSpan || 1;
    }
    return '';
  }

  // labelsOf returns el.labels as an array (undefined for none): the labels of el's tree scope whose
  // control is el, found with one pass over the scope's labels (el.labels scans the whole scope on
  // each call).
  function labelsOf(el) {
    const root = el.getRootNode();
    let m = labelMaps.get(root);
    if (!m) {
      m = new Map();
      for (const l of root.querySelectorAll('label')) {
        const c = l.control;
        if (!c) continue;
        const a = m.get(c);
        if (a) a.push(l); else m.set(c, [l]);
      }
      labelMaps.set(root, m);
    }
    return m.get(el);
  }

  const countIDs = root => { for (const e of root.querySelectorAll('[id]')) idCount.set(e.id, (idCount.get(e.id) || 0) + 1); };

  // Per tag: the lowercase name and its compact selector step.
  const tagInfo = new Map();
  let walkID = 0;
  function infoOf(tag) {
    let ti = tagInfo.get(tag);
    if (!ti) { const lower = tag.toLowerCase(); ti = {lower, step: '/' + lower + '/', stamp: [], nth: []}; tagInfo.set(tag, ti); }
    return ti;
  }

  // Shapes are interned in a tree (a node per tag path) that outlives snapshots, so a child's shape
  // is a map lookup instead of a string built and hashed per element; sg/ti cache the node's token
  // index for the current snapshot (snapID).
  let snapID = 0, nShapes = 0;
  const newShape = s => ({s, kids: new Map(), sg: 0, ti: 0});
  let shapeRoot = newShape('body');
  function childShape(node, lower) {
    let k = node.kids.get(lower);
    if (!k) {
      const shape = node.s;
      k = newShape(shape.length > 120 ? shape.slice(shape.indexOf('>', 40) + 1) + '>' + lower : shape + '>' + lower);
      node.kids.set(lower, k);
      nShapes++;
    }
    return k;
  }
  // frameShape is the shape of a frame's html element (never shortened, as before).
  function frameShape(node) {
    let k = node.kids.get('\0html');
    if (!k) { k = newShape(node.s + '>html'); node.kids.set('\0html', k); nShapes++; }
    return k;
  }
  function shapeTok(node) {
    if (node.sg === snapID) return u(node.ti + 1);
    const w = tok(node.s);
    node.sg = snapID; node.ti = tokens.get(node.s);
    return w;
  }

  const ITEMTAGS = new Set(['DIV', 'LI', 'TR', 'ARTICLE', 'SECTION', 'FIGURE', 'DL']);
  // itemSig is an element's first class, what repeated items share.
  function itemSig(e) {
    const c = e.getAttribute('class');
    if (!c) return '';
    const t = c.trim();
    const sp = t.indexOf(' ');
    return sp < 0 ? t : t.slice(0, sp);
  }

  // walk visits el's children. sel is el's compact selector, shape its tag path, ctxs the container
  // labels in force, parent the snapshot index of the nearest included ancestor.
  function walkChildren(node, sel, shape, ctxs, parent, ox, oy, scope, depth, cell, covered, inFrame, item) {
    // nth-of-type counts live in the tag's info, one slot per depth, stamped with this call.
    const stamp = ++walkID;
    let group = 0; // this node's number as a container of repeated items, once it has one
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
      const tag = c.tagName;
      const ti = infoOf(tag);
      let nth = 1;
      if (ti.stamp[depth] === stamp) nth = ++ti.nth[depth];
      else { ti.stamp[depth] = stamp; ti.nth[depth] = 1; }
      if (SKIP.has(tag) || depth > MAXDEPTH || c.hidden) continue;
      const lower = ti.lower;
      const id = c.id;
      const csel = id && idCount.get(id) === 1 ? scope + '#' + CSS.escape(id) : sel + ti.step + nth;
      const cshape = childShape(shape, lower);
      let citem = item;
      if (ITEMTAGS.has(tag)) {
        // A repeated container (a sibling with the same tag and first class): a list item,
        // a row, a card. Its elements belong together (see Element.Item).
        const sg = itemSig(c);
        const pv = c.previousElementSibling, nx = c.nextElementSibling;
        if ((pv && pv.tagName === tag && itemSig(pv) === sg) || (nx && nx.tagName === tag && itemSig(nx) === sg)) {
          citem = ++nItems;
          if (!group) group = ++nGroups;
          itemSigs[citem] = lower + (sg ? '.' + sg : '') + '@' + group;
        }
      }
      visit(c, tag, lower, csel, cshape, ctxs, parent, ox, oy, scope, depth, cell, covered, inFrame, citem);
    }
  }

  // Derived data: what an element contributes that depends only on its own attributes and its
  // subtree (open shadow roots included), not on layout, style, form state or other elements.
  // It is kept across snapshots in `cache` and dropped when a mutation could change it (see
  // invalidate), so a re-snapshot of an unchanged or slightly changed page reads few attributes
  // and walks little text. An element with a contenteditable attribute is never cached: whether
  // it starts an editable region depends on its ancestors.
  let cache = new WeakMap();
  // ATTRS are the attributes derive and what it calls read (of the element or, for ANCESTRAL
  // ones, of its descendants): changes of other attributes (style...) are not even recorded.
  const ATTRS = ['role', 'type', 'multiple', 'aria-labelledby', 'aria-label', 'contenteditable', 'title', 'alt', 'tabindex', 'href', 'onclick', 'placeholder', 'name', 'id', 'class',
    'data-testid', 'data-test', 'data-qa', 'aria-disabled', 'aria-checked', 'aria-pressed', 'aria-selected', 'hidden', 'aria-hidden'];
  const ANCESTRAL = new Set(['role', 'aria-label', 'alt', 'hidden', 'aria-hidden']);
  const OBSERVE = {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ATTRS};
  const mo = new MutationObserver(invalidate);
  // watched holds the documents and shadow roots mo observes; stale is set when the walk finds a
  // shadow root attached since cached data of its host's ancestors was derived (attachShadow is
  // no mutation): the snapshot is then taken again.
  const watched = new WeakSet();
  let stale = false;
  function watch(root) {
    if (watched.has(root)) return;
    watched.add(root);
    mo.observe(root, OBSERVE);
  }
  function watchRoot(sr, host) {
    watch(sr);
    for (let n = host; n; n = up(n)) {
      const d = cache.get(n);
      if (d && d.sid !== snapID) { stale = true; dropUp(host, new Set()); return; }
    }
  }
  const up = n => n.parentNode || (n.nodeType === 11 ? n.host : null);
  // dropUp drops the data of n and its ancestors (their text includes n's), across shadow roots.
  function dropUp(n, seen) {
    for (; n && !seen.has(n); n = up(n)) { seen.add(n); cache.delete(n); }
  }
  // dropTree drops the data of an added subtree: it may have changed while detached, unobserved.
  function dropTree(el) {
    cache.delete(el);
    if (el.shadowRoot) for (let c = el.shadowRoot.firstElementChild; c; c = c.nextElementSibling) dropTree(c);
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) dropTree(c);
  }
  function invalidate(recs) {
    if (!recs.length) return;
    const seen = new Set();
    for (const r of recs) {
      if (r.type === 'attributes' && !ANCESTRAL.has(r.attributeName)) { cache.delete(r.target); continue; }
      dropUp(r.target, seen);
      if (r.type === 'childList') for (const a of r.addedNodes) if (a.nodeType === 1) dropTree(a);
    }
  }

  function derive(el, tag) {
    // Elements without attributes (most cells, items and paragraphs) skip every attribute read.
    const ha = el.hasAttributes();
    const roleAttr = ha ? el.getAttribute('role') : null;
    const role = roleAttr ? roleAttr.trim().split(/\s+/)[0].toLowerCase() : '';
    const type = ha && tag === 'INPUT' ? (el.getAttribute('type') || '').toLowerCase() : '';
    const d = {sid: snapID, ha, role, type, keep: true, cl: null, clDyn: false, editRoot: false, fullRole: '', ariaLabel: '', title: '', alt: '', interactive: false, own: false, include: false, full: false,
      formControl: false, textual: false, isSVG: false, svgName: '', placeholder: '', t: '', tRaw: MAXN, special: true, tn: null, href: '', cls: '', na: null, id: '', tid: null, ariaDisabled: false, ariaOn: false, labelledby: false};
    if (type === 'hidden') return d;
    let kind = LANDMARK_ROLES[role];
    if (kind === undefined) kind = LANDMARKS[tag];
    if (kind !== undefined) {
      d.clDyn = ha && el.hasAttribute('aria-labelledby') && !el.getAttribute('aria-label');
      if (!d.clDyn) d.cl = containerLabel(el, tag, role);
    }
    if (ha && el.hasAttribute('contenteditable')) { d.keep = false; d.editRoot = isEditableRoot(el); }
    const r = implicitRole(el, tag, type, d.editRoot);
    const fullRole = d.fullRole = role && role !== 'presentation' && role !== 'none' && role !== 'generic' ? role : r;
    const ariaLabel = d.ariaLabel = ha ? el.getAttribute('aria-label') || '' : '';
    d.title = ha ? el.getAttribute('title') || '' : '';
    d.alt = ha && (tag === 'IMG' || tag === 'AREA' || type === 'image') ? (el.getAttribute('alt') || '') : '';
    const tabindex = ha ? el.getAttribute('tabindex') : null;
    const formControl = d.formControl = tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON';
    d.interactive = formControl || (tag === 'A' && ha && el.hasAttribute('href')) || tag === 'SUMMARY' ||
      INTERACTIVE_ROLES.has(fullRole) || d.editRoot ||
      (tabindex !== null && +tabindex >= 0) || (ha && el.hasAttribute('onclick'));
    d.own = ownText(el);
    d.include = d.interactive || d.own || TEXTTAGS.has(tag) || (role && role !== 'presentation' && role !== 'none') ||
      !!ariaLabel || tag === 'IMG' || ((tag === 'svg' || tag === 'SVG') && !!(ariaLabel || el.querySelector('title')));
    return d;
  }
  // deriveFull adds what only an included element needs.
  function deriveFull(d, el, tag) {
    d.full = true;
    const ha = d.ha, type = d.type;
    d.textual = (tag === 'INPUT' && TEXT_INPUTS.has(type)) || tag === 'TEXTAREA';
    d.labelledby = ha && el.hasAttribute('aria-labelledby');
    d.placeholder = ha ? el.getAttribute('placeholder') || '' : '';
    d.isSVG = tag === 'svg' || tag === 'SVG';
    if (d.isSVG) { const st = el.querySelector('title'); d.svgName = st ? st.textContent : ''; }
    if (tag !== 'SELECT' && (!d.formControl || tag === 'BUTTON')) {
      // Images and aria-labels are watched always: whether the name may come from this text is
      // decided per snapshot (it depends on labels).
      tOut = ''; tMax = MAXT; tName = false; tWatch = true; tSpecial = false;
      tWalk(el);
      d.tRaw = tOut.length; d.special = tSpecial;
      d.t = cap(ws(tOut), MAXT);
      tOut = '';
    }
    d.href = tag === 'A' && ha && el.hasAttribute('href') ? cap(el.getAttribute('href'), 300) : '';
    d.cls = ha && typeof el.className === 'string' ? ws(el.className) : '';
    d.na = ha ? el.getAttribute('name') : null;
    d.id = el.id;
    d.tid = ha ? el.getAttribute('data-testid') || el.getAttribute('data-test') || el.getAttribute('data-qa') : null;
    d.ariaDisabled = ha && el.getAttribute('aria-disabled') === 'true';
    d.ariaOn = ha && (el.getAttribute('aria-checked') === 'true' || el.getAttribute('aria-pressed') === 'true' || (d.fullRole === 'tab' && el.getAttribute('aria-selected') === 'true'));
  }

  const VISIBLE = {visibilityProperty: true, opacityProperty: true};
  function visit(el, tag, lower, sel, shape, ctxs, parent, ox, oy, scope, depth, cell, covered, inFrame, item) {
    let d = cache.get(el);
    if (d === undefined) {
      d = derive(el, tag);
      if (d.keep) cache.set(el, d);
    }
    const type = d.type;
    if (type === 'hidden') return;
    if (modal && el === modal) covered = false;

    const cl = d.clDyn ? containerLabel(el, tag, d.role) : d.cl;
    if (cl) ctxs = ctxs.concat([cl]);
    if (tag === 'TD' || tag === 'TH') cell = el;

    const fullRole = d.fullRole;
    const isHeading = fullRole === 'heading';
    const control = tag === 'LABEL' ? el.control : null;
    let interactive = d.interactive || !!control;
    const own = d.own;
    let include = d.include || !!control;
    let rect = null;
    if (include) {
      rect = el.getBoundingClientRect();
      // No box: display:none subtrees are skipped (display:contents has no box but its children do).
      if ((rect.width === 0 || rect.height === 0) && !el.checkVisibility()) {
        if (getComputedStyle(el).display !== 'contents') return;
        include = false;
      }
    }
    if (include && !interactive && own && POINTERTAGS.has(tag)) {
      // Clickable divs and spans: a pointer cursor that is not merely inherited.
      const cur = getComputedStyle(el).cursor;
      if (cur === 'pointer') {
        const p = el.parentElement;
        interactive = !p || getComputedStyle(p).cursor !== 'pointer';
      }
    }

    let idx = parent;
    if (include) {
      if (!d.full) deriveFull(d, el, tag);
      idx = els.length;
      els.push(el);
      let bits = 0;
      if (interactive) bits |= 4;

      // Selector: the length shared with the previous one, then the rest.
      let sp = 0;
      const lim = Math.min(sel.length, prevSel.length);
      while (sp < lim && sel.charCodeAt(sp) === prevSel.charCodeAt(sp)) sp++;
      if (sp > 0 && (sel.charCodeAt(sp - 1) & 0xFC00) === 0xD800) sp--; // never split a surrogate pair
      const selw = u(sp) + str(sp ? sel.slice(sp) : sel);
      prevSel = sel;
      const rw = rect.width, rh = rect.height;
      const x = Math.round((rect.x + ox) * 10), y = Math.round((rect.y + oy) * 10), w = Math.round(rw * 10), h = Math.round(rh * 10);
      const boxw = z(x - px) + z(y - py) + z(w - pw) + z(h - ph);
      px = x; py = y; pw = w; ph = h;

      if (!(rw > 0 && rh > 0 && el.checkVisibility(VISIBLE))) bits |= 64;
      const formControl = d.formControl, ariaLabel = d.ariaLabel, title = d.title, alt = d.alt, placeholder = d.placeholder, textual = d.textual;
      const disabled = (formControl && el.matches(':disabled')) || d.ariaDisabled || (!!control && control.disabled);
      if (disabled) bits |= 128;
      if (type === 'checkbox' || type === 'radio') { if (el.checked) bits |= 512; }
      else if (d.ariaOn) bits |= 512;
      const editRoot = d.editRoot;
      if (!disabled && ((textual && !el.readOnly) || editRoot)) bits |= 256;
      if (covered) bits |= 1024;
      if (inFrame) bits |= 2048;

      let label = '';
      const labels = el.labels && labelsOf(el);
      if (labels) label = ws(labels.map(l => text(l, MAXN, true)).join(' '));
      const labelledby = d.labelledby ? byIDs(el, 'aria-labelledby') : '';
      // The name will come from the element's own text: t stands for it when no image or
      // aria-label could make the two differ and the whole subtree fitted.
      const nameFromText = !(labelledby || ariaLabel || label || alt) && !title && !placeholder && !d.isSVG && !textual &&
        tag !== 'SELECT' && tag !== 'INPUT' && (interactive || isHeading || fullRole === 'label');
      let t = d.t;
      if (tag === 'SELECT') { const o = el.selectedOptions && el.selectedOptions[0]; t = o ? ws(o.textContent) : ''; }
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
      if (!name && d.isSVG) name = d.svgName;
      if (!name && title) name = title;
      if (!name && placeholder) name = placeholder;
      if (!name && tag === 'INPUT' && (type === 'button' || type === 'submit' || type === 'reset')) name = value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      if (!name && !textual && tag !== 'SELECT') {
        if (!(interactive || isHeading || fullRole === 'label')) name = t;
        else if (nameFromText && !d.special && d.tRaw < MAXN) name = t;
        else {
          if (d.tn === null) d.tn = text(el, MAXN, true);
          name = d.tn;
        }
      }
      name = cap(ws(name), MAXN);
      if (t && t !== name) bits |= 8;
      else if (t) bits |= 2;
      const href = d.href, cls = d.cls, na = d.na, id = d.id, tid = d.tid;
      if (href) bits |= 16;
      if (cls) bits |= 32;
      if (label) bits |= 4096;
      if (na) bits |= 8192;
      if (id) bits |= 16384;
      if (value) bits |= 32768;
      if (type) bits |= 65536;
      if (placeholder) bits |= 131072;
      if (ariaLabel) bits |= 262144;
      if (title) bits |= 524288;
      if (alt) bits |= 1048576;
      if (tid) bits |= 2097152;
      if (item) bits |= 4194304;

      const parts = [];
      if (cell && cell !== el) { const hd = colHeader(cell); if (hd) parts.push(hd); }
      else if (tag === 'TD') { const hd = colHeader(el); if (hd) parts.push(hd); }
      for (let i = ctxs.length - 1; i >= 0 && parts.length < 3; i--) if (!parts.includes(ctxs[i])) parts.push(ctxs[i]);
      while (headings.length && !headings[headings.length - 1].scope.contains(el)) headings.pop();
      const lastHeading = headings.length ? headings[headings.length - 1].text : '';
      if (lastHeading && parts.length < 4 && !parts.some(p => p.includes(lastHeading))) parts.push(lastHeading);
      if (parts.length) bits |= 1;

      // Table entries are numbered in the order they are written: emit strictly in wire order.
      let o = u(bits) + tok(lower) + tok(fullRole) + u(parent < 0 ? 0 : idx - parent) + shapeTok(shape) + selw + boxw + txt(name);
      if (bits & 8) o += txt(t);
      if (href) o += txt(href);
      if (cls) o += txt(cap(cls, 100));
      if (label) o += txt(cap(label, MAXN));
      if (na) o += txt(cap(na, 100));
      if (id) o += txt(cap(id, 100));
      if (value) o += txt(value);
      if (type) o += tok(type);
      if (placeholder) o += txt(cap(ws(placeholder), MAXN));
      if (ariaLabel) o += txt(cap(ws(ariaLabel), MAXN));
      if (title) o += txt(cap(ws(title), MAXN));
      if (alt) o += txt(cap(ws(alt), MAXN));
      if (tid) o += txt(cap(tid, 100));
      if (parts.length) o += tok(cap(parts.length === 1 ? parts[0] : parts.join(' | '), 160));
      if (item) o += u(item) + tok(itemSigs[item]);
      out += o;
      if (isHeading && name) headings.push({text: cap(name, 80), scope: el.parentNode || el});
    }

    if (tag === 'SELECT' || tag === 'TEXTAREA') return;
    const sr = el.shadowRoot;
    if (sr) {
      if (!watched.has(sr)) watchRoot(sr, el);
      countIDs(sr);
      walkChildren(sr, sel + ' >>>', shape, ctxs, idx, ox, oy, sel + ' >>> ', depth + 1, cell, covered, inFrame, item);
    }
    if (tag === 'IFRAME') {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { /* cross-origin */ }
      if (doc && doc.documentElement) {
        const fr = el.getBoundingClientRect();
        watch(doc);
        countIDs(doc);
        walkChildren(doc.documentElement, sel + ' >>> html', frameShape(shape), ctxs, idx, ox + fr.x + el.clientLeft, oy + fr.y + el.clientTop, sel + ' >>> ', depth + 1, null, covered, true, 0);
      }
      return;
    }
    walkChildren(el, sel, shape, ctxs, idx, ox, oy, scope, depth + 1, cell, covered, inFrame, item);
  }

  // snap takes a snapshot; fresh drops the derived data of earlier snapshots first.
  return function snap(fresh) {
    if (fresh) cache = new WeakMap();
    watch(document);
    invalidate(mo.takeRecords());
    // Modal: elements outside an open modal dialog are covered.
    modal = null;
    try { modal = document.querySelector('dialog:modal'); } catch (e) { /* old engines */ }
    if (!modal) {
      for (const m of document.querySelectorAll('[aria-modal="true"]')) {
        if (m.checkVisibility()) { modal = m; break; }
      }
    }
    if (nShapes > 20000) { shapeRoot = newShape('body'); nShapes = 0; }
    try {
      for (let pass = 0; pass < 2; pass++) {
        snapID++; stale = false;
        tokens = new Map(); nTokens = 0; texts = new Map(); nTexts = 0; out = ''; prevSel = ''; px = py = pw = ph = 0;
        els = []; idCount = new Map(); headings = []; hdrMemo = new Map(); labelMaps = new Map(); rowMemo = new Map(); colMemo = new Map();
        countIDs(document);
        nItems = 0; nGroups = 0; itemSigs = [''];
        if (document.body) walkChildren(document.body, 'body', shapeRoot, [], -1, 0, 0, '', 0, null, !!modal, false, 0);
        if (!stale) break;
      }
      const gen = ++store.gen;
      store.snaps.set(gen, els);
      for (const g of store.snaps.keys()) if (g <= gen - 8) store.snaps.delete(g);
      return u(gen) + str(location.href) + str(document.title) + u(els.length) + out;
    } finally {
      itemSigs = null;
      tokens = texts = els = idCount = headings = hdrMemo = labelMaps = rowMemo = colMemo = modal = null; out = prevSel = '';
    }
  };
  }
}
