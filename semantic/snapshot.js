// snapshot.js collects, in one pass over the DOM (open shadow roots and same-origin iframes
// included), the interactive and text-bearing elements rodeo's ranker needs. It reads only: no
// attribute, node or style is written, so a MutationObserver sees nothing (it adds passive
// listeners that count user input, see measureAgain). The live elements are kept
// in a page-side array under a non-enumerable window property (KEY) so Handle can fetch them later.
//
// Called with KEY, it installs the snapshot function on that property's object once per document
// (later snapshots call it with a short expression, see Snap in snap.go, and V8 keeps its
// optimized code) and returns one snapshot. What an element contributes that depends only on its
// attributes and subtree (role, names, text, container label...) is kept between snapshots and
// dropped by a MutationObserver of the script's own when the DOM changes (see derive). The last
// snapshot is reused, or its rows written again with new boxes, visibility and form state, when
// the observer saw nothing that could change more and a re-read of everything the walk read from
// layout, style and form state proves it (see remeasure); otherwise the page is walked again. A
// page that nothing restyled or moved since (see measureAgain) skips most of that re-read.
// snapW10(doc, gen) takes a snapshot: see the message below. snapW10(0, 0, true) derives
// everything again and walks the page (for tests).
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
//   snapshot: gen, url (string), title (string), count, then count elements; the body is the
//            snapshot without its gen.
//   message: what snapW10(doc, gen) returns: "F", the document's id (string, random per document),
//            gen, body; or, when doc and gen are those of the last message sent, "D", gen, then
//            the length of the body's prefix and suffix that the last body has too (numbers, in
//            UTF-16 code units, never splitting a surrogate pair), then the rest of the body; or,
//            when the page's elements are those of the last message's, "P", gen, url, title,
//            then the rows whose state changed and the items whose kind changed (see patchRows).
//   element: bits, tag, role, parent (the element's index minus its parent's, 0 for none), shape,
//            selector (the length shared with the previous element's compact selector, then the
//            rest as a string), box (x, y, w, h in tenths of a pixel, each a signed difference
//            from the previous element's), name (text), then, when their bit is set and in this
//            order: text, href, class, label, name attribute, id attribute, value (texts), input
//            type (token), placeholder, aria-label, title, alt, test id (texts), context (token),
//            item (a number, a token and the enclosing item's number, see Element.Item and ItemUp),
//            current (text: what aria-current says, see Element.Current), options (text: a select's
//            options, one a line, see Element.Options), colour (text: a coarse colour name, see
//            Element.Color and colorOf).
//   bits:    1 context, 2 text same as name, 4 interactive, 8 text, 16 href, 32 class, 64 hidden,
//            128 disabled, 256 editable, 512 checked, 1024 covered, 2048 in frame, 4096 label,
//            8192 name attribute, 16384 id attribute, 32768 value, 65536 input type,
//            131072 placeholder, 262144 aria-label, 524288 title, 1048576 alt, 2097152 test id,
//            4194304 item, 8388608 current, 16777216 options, 33554432 colour.
//   compact selector: a selector where "/tag/n" stands for " > tag:nth-of-type(n)" (a tag name has
//            no "/", and CSS.escape escapes every "/" of an id).
function (KEY) {
  let store = window[KEY];
  if (!store) {
    store = {gen: 0, snaps: new Map()};
    Object.defineProperty(window, KEY, {value: store, enumerable: false, configurable: true, writable: false});
  }
  if (!store.snapW10) store.snapW10 = install(store);
  return store.snapW10();

  function install(store) {
  const MAXN = 200, MAXT = 300, MAXDEPTH = 512;
  // A select's options: at most MAXOPTS, each capped at MAXOPT characters (see optionTexts).
  const MAXOPTS = 50, MAXOPT = 60;
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'BR', 'HR', 'WBR', 'PARAM', 'SOURCE', 'TRACK', 'OPTION', 'OPTGROUP', 'DATALIST']);
  const INLINE = new Set(['B', 'I', 'EM', 'STRONG', 'SPAN', 'A', 'SMALL', 'CODE', 'SUP', 'SUB', 'MARK', 'U', 'S', 'ABBR', 'LABEL', 'FONT', 'Q', 'CITE', 'KBD', 'VAR', 'TIME', 'BDI', 'BDO', 'DEL', 'INS', 'DFN', 'DATA']);
  const TEXTTAGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'TD', 'TH', 'LABEL', 'LEGEND', 'CAPTION', 'DT', 'DD', 'FIGCAPTION', 'P', 'OUTPUT', 'BLOCKQUOTE', 'PRE']);
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'switch', 'slider', 'spinbutton', 'treeitem', 'gridcell']);
  const LANDMARKS = {NAV: 'navigation', HEADER: 'header', FOOTER: 'footer', ASIDE: 'sidebar', MAIN: '', FORM: 'form', SECTION: '', ARTICLE: '', DIALOG: 'dialog', FIELDSET: '', TABLE: 'table'};
  const LANDMARK_ROLES = {navigation: 'navigation', banner: 'header', contentinfo: 'footer', complementary: 'sidebar', dialog: 'dialog', alertdialog: 'dialog', form: 'form', region: '', search: 'search', menu: 'menu', menubar: 'menu', tablist: 'tabs', toolbar: 'toolbar', list: '', grid: 'table', table: 'table'};
  const TEXT_INPUTS = new Set(['', 'text', 'email', 'password', 'search', 'tel', 'url', 'number', 'date', 'datetime-local', 'month', 'week', 'time']);
  const POINTERTAGS = new Set(['DIV', 'SPAN', 'LI', 'I', 'IMG', 'svg', 'P']);
  // HANDCURSORS are the cursors a page gives what it lets one click or drag.
  const HANDCURSORS = new Set(['pointer', 'grab', 'grabbing', 'move']);
  // The elements attachShadow accepts (besides custom elements, whose names have a dash): only
  // these can get a shadow root without a mutation (see remeasure).
  const SHADOWABLE = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

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
  // itemOf maps each item's container to its number and itemGroups each item to its group, so a
  // re-encoding can rename an item whose first class changed (see reencode).
  let nItems = 0, nGroups = 0, itemSigs = null, itemUps = null, itemOf = null, itemGroups = null;
  let els = null, rows = null, idCount = null, headings = null, hdrMemo = null, labelMaps = null, rowMemo = null, colMemo = null, modal = null;

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
  // The text is the flat tree's, as rendered: a shadow host's is its shadow root's, whose slots
  // show the host's children assigned to them (<aur-button><button><slot> shows "Update card"
  // from the light DOM), or their own fallback content when none is.
  let tOut = '', tMax = 0, tName = false, tWatch = false, tSpecial = false;
  function tWalk(n) {
    for (let c = n.firstChild; c && tOut.length < tMax; c = c.nextSibling) tNode(c);
  }
  function tNode(c) {
    const nt = c.nodeType;
    if (nt === 3) { tOut += c.data; return; }
    if (nt !== 1) return;
    const tag = c.tagName;
    if (SKIP.has(tag)) {
      if (tag === 'BR') tOut += ' '; // a line break parts words: "6:45 PM<br>45 min"
      return;
    }
    if (tag === 'SLOT') {
      const as = c.assignedNodes({flatten: true});
      if (!as.length) { tWalk(c); return; }
      for (let i = 0; i < as.length && tOut.length < tMax; i++) tNode(as[i]);
      return;
    }
    if (c.hidden || c.getAttribute('aria-hidden') === 'true') return;
    if (tName) {
      const al = c.getAttribute('aria-label');
      if (al) { tOut += ' ' + al + ' '; return; }
      if (tag === 'IMG') { tOut += ' ' + (c.getAttribute('alt') || '') + ' '; return; }
    } else if (tWatch && (tag === 'IMG' || c.getAttribute('aria-label'))) tSpecial = true;
    if (tag === 'svg' || tag === 'SVG' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    // An inline tag in a box of its own parts words too ("Thu<small>Jun 19</small>" with small
    // display:block reads "Thu Jun 19"; see gapOf): its style is read only where words would
    // run together.
    const inline = INLINE.has(tag), block = !inline || wordEnd(tOut) && gapOf(c) === 3;
    if (block || inline && wordEnd(tOut) && (gapOf(c) & 1)) tOut += ' ';
    const sr = c.shadowRoot;
    if (sr) { if (!watched.has(sr)) watchRoot(sr, c); tWalk(sr); } else tWalk(c);
    // Words run together after it too: a stat tile's "<b>318</b>Calories" with b laid out as a
    // block reads "318 Calories"; "<span class=qty-label>Qty</span><span class=qty>2</span>"
    // with a margin between reads "Qty 2".
    if (block || wordEnd(tOut) && wordStart(c.nextSibling) && (gapOf(c) & 2)) tOut += ' ';
  }
  function wordStart(n) {
    const t = !n ? '' : n.nodeType === 3 ? n.data : n.nodeType === 1 ? n.textContent : '';
    return t !== '' && wordEnd(t[0]);
  }
  function wordEnd(t) {
    const n = t.length;
    if (!n) return false;
    const ch = t.charCodeAt(n - 1);
    return ch > 127 ? /[\p{L}\p{N}]/u.test(t[n - 1]) : (ch >= 48 && ch <= 57) || ((ch | 32) >= 97 && (ch | 32) <= 122);
  }
  // gapOf tells which sides of an inline tag's box are apart from the text around it, though no
  // whitespace parts them (1 before, 2 after, 3 both): a box of its own (a block, a flex or grid
  // item, a table cell, an inline-block tag or badge: "Organic</span><span class=tag>Handmade")
  // or a margin, padding or border on that side ("Qty</span><span style='margin-left: 6px'>2").
  // Markup alone ("sur<b>pri</b>se") parts nothing. Read once per element and snapshot.
  let gapMemo = null;
  function gapOf(c) {
    let g = gapMemo !== null ? gapMemo.get(c) : undefined;
    if (g !== undefined) return g;
    const cs = getComputedStyle(c), d = cs.display;
    if (d === 'none' || d === 'contents') g = 0;
    else if (d !== 'inline') g = 3;
    else {
      const left = parseFloat(cs.marginLeft) > 0 || parseFloat(cs.paddingLeft) > 0 || parseFloat(cs.borderLeftWidth) > 0;
      const right = parseFloat(cs.marginRight) > 0 || parseFloat(cs.paddingRight) > 0 || parseFloat(cs.borderRightWidth) > 0;
      const rtl = cs.direction === 'rtl';
      g = ((rtl ? right : left) ? 1 : 0) | ((rtl ? left : right) ? 2 : 0);
    }
    if (gapMemo !== null) gapMemo.set(c, g);
    return g;
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
      case 'TH': {
        // A th heads its row when it says so, or (as Chrome maps it) when it sits among a
        // body row's data cells: "Harlow Rovers" in a league table is a row's header.
        const sc = (el.getAttribute('scope') || '').toLowerCase();
        if (sc === 'row' || sc === 'rowgroup') return 'rowheader';
        if (sc === 'col' || sc === 'colgroup' || el.closest('thead')) return 'columnheader';
        const row = el.parentElement;
        return row && row.querySelector(':scope > td') ? 'rowheader' : 'columnheader';
      }
      case 'TR': return 'row';
      case 'LABEL': return 'label';
      case 'DIALOG': return 'dialog';
      case 'OUTPUT': return 'status';
      case 'PROGRESS': return 'progressbar';
      case 'METER': return 'meter';
      case 'NAV': return 'navigation';
      case 'P': return 'paragraph';
      case 'svg': case 'SVG': return 'img';
    }
    return editRoot ? 'textbox' : 'text';
  }

  // Landmark/fieldset/dialog label (each element is visited once: no memo needed).
  function containerLabel(el, tag, role, strip) {
    let kind = strip ? 'banner' : LANDMARK_ROLES[role];
    if (kind === undefined) kind = LANDMARKS[tag];
    if (kind === undefined) return null;
    let l = el.getAttribute('aria-label') || byIDs(el, 'aria-labelledby');
    if (!l && tag === 'FIELDSET') { const lg = el.querySelector(':scope > legend'); if (lg) l = text(lg, 80, false); }
    if (!l && tag === 'TABLE') { const cp = el.querySelector(':scope > caption'); if (cp) l = text(cp, 80, false); }
    if (!l && tag !== 'TABLE') { const h = el.querySelector('h1,h2,h3,h4,h5,h6,[role=heading]'); if (h) l = text(h, 80, false); }
    if (!l && strip) l = stripWords(el); // "the announcement banner": its class says what it is
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
  // A grid built of divs with ARIA roles (role=grid > role=row > role=gridcell) has its header
  // row where its first columnheader is.
  function colHeaderNow(cell) {
    const row = cell.parentElement;
    if (!row) return '';
    let hrow = rowMemo.get(row);
    if (hrow === undefined) {
      const table = cell.closest('table');
      if (table) hrow = (table.tHead ? table.tHead.rows[0] : table.rows[0]) || null;
      else {
        const grid = row.getAttribute('role') === 'row' ? row.closest('[role=grid],[role=table],[role=treegrid]') : null;
        const h = grid && grid.querySelector('[role=columnheader]');
        hrow = h && h.parentElement && h.parentElement.getAttribute('role') === 'row' ? h.parentElement : null;
      }
      if (hrow === row) hrow = null;
      rowMemo.set(row, hrow);
    }
    if (!hrow) return '';
    let col = 0;
    for (let c = row.firstElementChild; c && c !== cell; c = c.nextElementSibling) col += c.colSpan || 1;
    let m = colMemo.get(hrow);
    if (!m) { m = { cols: [], names: sheetNames(hrow), full: [] }; colMemo.set(hrow, m); }
    let h = m.cols[col];
    if (h === undefined) { h = colHeaderText(hrow, col); m.cols[col] = h; }
    if (!m.names || row === m.names || !h) return h;
    let f = m.full[col];
    if (f === undefined) {
      const n = colHeaderText(m.names, col, true);
      f = m.full[col] = n ? cap(h + ' ' + n, 90) : h;
    }
    return f;
  }
  // A spreadsheet's header row names its columns by letter (A, B, C...); what a column holds is
  // said by its first row of cells ("Actual" over E2:E10), so a cell under it is read as being
  // under "E Actual": "the actual spend on events". sheetNames returns that row when hrow is a
  // row of letters from A and the row after it is all words (null otherwise).
  function sheetNames(hrow) {
    const table = hrow.closest('table');
    if (!table) return null;
    let want = 65, letters = 0;
    for (let c = hrow.firstElementChild; c; c = c.nextElementSibling) {
      const t = ws(c.textContent);
      if (t === '' && letters === 0) continue;
      if (t.length !== 1 || t.charCodeAt(0) !== want) return null;
      want++; letters++;
    }
    if (letters < 3) return null;
    const next = table.rows[hrow.rowIndex + 1];
    if (!next) return null;
    let words = 0;
    for (let c = next.firstElementChild; c; c = c.nextElementSibling) {
      if (c.tagName === 'TH' && words === 0 && /^\d+$/.test(ws(c.textContent))) continue; // the row's number
      const t = ws(c.textContent);
      if (t === '') continue;
      if (!/^[^\d$€£¥%+\-.,]/.test(t)) return null;
      words++;
    }
    return words >= 2 ? next : null;
  }
  function colHeaderText(hrow, col, anyCell) {
    let i = 0;
    for (let c = hrow.firstElementChild; c; c = c.nextElementSibling) {
      if (i === col || (i < col && i + (c.colSpan || 1) > col)) return anyCell || c.tagName === 'TH' || c.getAttribute('role') === 'columnheader' ? headerText(c) : '';
      i += c.colSpan || 1;
    }
    return '';
  }

  // headerText is a column header's text and what its abbreviations stand for ("Pts Points"): a
  // user asks for "the points", the header shows "Pts". An aria-label names the header outright.
  function headerText(th) {
    const l = th.getAttribute('aria-label');
    if (l) return cap(ws(l), 60);
    let t = text(th, 60, false);
    for (const a of th.querySelectorAll('abbr[title]')) {
      const full = ws(a.getAttribute('title'));
      if (full && !t.includes(full)) t += ' ' + full;
    }
    return cap(t, 90);
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

  // ARIACELLS are the roles of a grid's cells built of divs (a <td> or <th> is one by its tag).
  const ARIACELLS = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
  const ITEMTAGS = new Set(['DIV', 'LI', 'TR', 'ARTICLE', 'SECTION', 'FIGURE', 'DL']);
  // itemTag tells whether an element with tag may be a repeated item: a block container, or a
  // custom element (<product-card>, <ytd-video-renderer>), which component sites repeat for
  // their cards and rows.
  const itemTag = tag => ITEMTAGS.has(tag) || customTag(tag);
  // customTag tells whether a tag (either case) names a custom element: it has a hyphen.
  const customTag = tag => tag.includes('-');
  // itemSig is an element's first class, what repeated items share.
  function itemSig(e) { return sigOf(e.getAttribute('class')); }
  function sigOf(c) {
    if (!c) return '';
    const t = c.trim();
    const sp = t.indexOf(' ');
    return sp < 0 ? t : t.slice(0, sp);
  }

  // itemRole is c's role when ARIA makes it one of a list's or table's entries: like a row or a
  // list item, such an element is an item whatever its class.
  const ITEMROLES = new Set(['row', 'listitem', 'article']);
  const itemRole = c => { const r = c.getAttribute('role'); return r && ITEMROLES.has(r) ? r : ''; };
  // repeated tells whether a child c with tag and first class sg is an item, given its parent's
  // repeatsOf (walkChildren and rekind must agree).
  const repeated = (reps, c, tag, sg) => reps.get(tag + '.' + sg) > 1 || (tag === 'TR' || tag === 'LI') && reps.get(tag) > 1 || reps.get('@' + itemRole(c)) > 1;
  // itemKind is an item's ItemKind: its tag, first class and group.
  const itemKind = (lower, sg, group) => lower + (sg ? '.' + sg : '') + '@' + group;

  // repeatsOf counts node's children that may be items by tag and first class ("TR.athing"),
  // by tag alone ("TR") and by item role ("@listitem").
  function repeatsOf(node) {
    const m = new Map();
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
      const tag = c.tagName;
      if (!itemTag(tag)) continue;
      const k = tag + '.' + itemSig(c);
      m.set(k, (m.get(k) || 0) + 1);
      m.set(tag, (m.get(tag) || 0) + 1);
      const r = itemRole(c);
      if (r) m.set('@' + r, (m.get('@' + r) || 0) + 1);
    }
    return m;
  }

  // walk visits el's children. sel is el's compact selector, shape its tag path, ctxs the container
  // labels in force, parent the snapshot index of the nearest included ancestor.
  function walkChildren(node, sel, shape, ctxs, parent, ox, oy, scope, depth, cell, covered, inFrame, item) {
    // nth-of-type counts live in the tag's info, one slot per depth, stamped with this call.
    const stamp = ++walkID;
    let group = 0; // this node's number as a container of repeated items, once it has one
    let reps = null; // repeatsOf(node), once a child may be an item
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
      if (itemTag(tag)) {
        // A repeated container: a list item, a row, a card. Its elements belong together (see
        // Element.Item). Repeated means a sibling with the same tag and first class, anywhere
        // in the list (a story row and its subtext row alternate); a row or list item is one
        // whatever its class (an unread row among read ones).
        if (!reps) reps = repeatsOf(node);
        const sg = itemSig(c);
        if (repeated(reps, c, tag, sg)) {
          citem = ++nItems;
          if (!group) group = ++nGroups;
          itemSigs[citem] = itemKind(lower, sg, group);
          itemUps[citem] = item;
          itemOf.set(c, citem);
          itemGroups[citem] = group;
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
  // TIPS are the attributes tooltip libraries name an icon button with.
  const TIPS = ['data-tooltip', 'data-tip', 'data-title', 'data-original-title', 'data-bs-original-title', 'mattooltip', 'data-balloon'];
  // iconOwner maps an icon element to the control named after it (see iconName): a change of
  // the icon's attributes changes the control's name.
  let iconOwner = new WeakMap();
  // ATTRS are the attributes derive and what it calls read (of the element or, for ANCESTRAL
  // ones, of its descendants): changes of other attributes (style...) drop no derived data
  // (see DIRTY for what they do to replay).
  const ATTRS = ['role', 'type', 'multiple', 'aria-labelledby', 'aria-label', 'contenteditable', 'title', 'alt', 'tabindex', 'href', 'onclick', 'draggable', 'placeholder', 'aria-placeholder', 'data-placeholder', 'name', 'id', 'class',
    'data-testid', 'data-test', 'data-qa', 'aria-valuetext', 'aria-valuenow', 'aria-disabled', 'aria-checked', 'aria-pressed', 'aria-selected', 'aria-current', 'hidden', 'aria-hidden', ...TIPS];
  // RANGE_ROLES are the roles whose value ARIA gives (aria-valuetext, aria-valuenow); Go's
  // Element.RangeValue reads the same roles.
  const RANGE_ROLES = new Set(['progressbar', 'slider', 'spinbutton', 'meter', 'scrollbar']);
  const ANCESTRAL = new Set(['role', 'aria-label', 'alt', 'hidden', 'aria-hidden']);
  const ATTRSET = new Set(ATTRS);
  // DIRTY are the attributes whose change may change what replay reuses: those derive reads,
  // and those of labels, read-only fields, column spans and frames. Any other attribute (style,
  // aria-expanded, data-*, disabled, checked, value, open...) changes at most what remeasure
  // reads again: layout, style, form state, the modal.
  const DIRTY = new Set([...ATTRS, 'for', 'readonly', 'colspan', 'src', 'srcdoc']);
  // Every attribute is recorded (a style or class change may move or hide elements, see replay);
  // only ATTRS drop derived data.
  const OBSERVE = {subtree: true, childList: true, characterData: true, attributes: true};
  const mo = new MutationObserver(invalidate);
  // watched holds the documents and shadow roots mo observes; stale is set when the walk finds a
  // shadow root attached since cached data of its host's ancestors was derived (attachShadow is
  // no mutation): the snapshot is then taken again.
  const watched = new WeakSet();
  let stale = false, dirty = true, volatile = false;
  // classed holds the elements whose class changed since the last walk when nothing else did
  // (see invalidate).
  const classed = new Set();
  // restyled holds the elements whose attributes changed since the last snapshot when nothing
  // else did (null: too many to follow, or one whose change restyles elsewhere), for the
  // restyle's scope (see restyleScope).
  let restyled = new Set();
  // UNSCOPED are the elements whose attributes restyle what is not under them: a style sheet's
  // media, a table column's style. (A slot's name is read by derive: the page is walked again.)
  const UNSCOPED = new Set(['STYLE', 'LINK', 'COL', 'COLGROUP', 'style', 'link']);
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
  // A host's shadow tree shows the host's children through slots: a change among them (not one
  // inside the shadow tree itself) may rename what is in the shadow tree too.
  function dropUp(n, seen) {
    for (let from = null; n && !seen.has(n); from = n, n = up(n)) {
      seen.add(n); cache.delete(n);
      const sr = n.nodeType === 1 && n.shadowRoot;
      if (sr && from !== sr) for (let c = sr.firstElementChild; c; c = c.nextElementSibling) dropTree(c);
    }
  }
  // dropTree drops the data of an added subtree: it may have changed while detached, unobserved.
  function dropTree(el) {
    cache.delete(el);
    if (el.shadowRoot) for (let c = el.shadowRoot.firstElementChild; c; c = c.nextElementSibling) dropTree(c);
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) dropTree(c);
  }
  // invalidate drops the derived data mutations may change and tells what replay may still do:
  // most attributes change only what replay reads again (see DIRTY); a class changes that, the
  // element's own class field and, for a possible item, the kinds of items and even which
  // containers are items (see itemSig): re-encoding handles the first two and checks the last
  // (see reencode). Anything else makes the page dirty: it is walked again.
  function invalidate(recs) {
    if (!recs.length) return;
    settleVals = null; // any attribute may restyle: the next snapshot reads everything again
    const seen = new Set();
    for (const r of recs) {
      if (r.type === 'attributes' && iconOwner.has(r.target)) {
        // An icon swapped (an eye for an eye-slash): its control is named anew.
        cache.delete(iconOwner.get(r.target));
        dirty = true;
      }
      if (r.type === 'attributes' && !ANCESTRAL.has(r.attributeName)) {
        const an = r.attributeName;
        if (restyled !== null) {
          if (restyled.size < 64 && !UNSCOPED.has(r.target.tagName)) restyled.add(r.target);
          else restyled = null;
        }
        if (an === 'class' && r.attributeNamespace === null) {
          if (classed.size < 64) classed.add(r.target);
          else dirty = true;
        } else if (DIRTY.has(an)) dirty = true;
        if (ATTRSET.has(an)) cache.delete(r.target);
        continue;
      }
      dirty = true;
      dropUp(r.target, seen);
      if (r.type === 'childList') for (const a of r.addedNodes) if (a.nodeType === 1) dropTree(a);
    }
  }

  // iconName is what an icon-only control's icon shows, read from the icon font's or sprite's
  // name ("fa-trash-can", "bi-gear", "icon-close", <use href="#icon-bell">, data-icon): words a
  // user says ("the trash can", "the gear", "the bell icon") that are nowhere else on the page.
  const ICONCLS = /^(?:fa|fas|far|fal|fab|bi|icon|icons|glyphicon|ti|mdi|ri|lni|feather|la|ion|gg|ph|octicon)-(.+)$/;
  const ICONMOD = /^(?:solid|regular|light|thin|duotone|brands|fw|lg|sm|xs|xl|[0-9]+x|spin|pulse|border|inverse|flip.*|rotate.*|stack.*|pull.*|ul|li|sharp|outline|outlined|fill|filled|round|rounded|small|large|md|[0-9]+)$/;
  function iconName(el) {
    // Every element looked at is watched: a change of its attributes (an icon swapped, a class
    // that makes it an icon, a data-icon set) names the control anew (see invalidate).
    iconOwner.set(el, el);
    const of = (c) => {
      const di = c.getAttribute('data-icon');
      if (di) return di;
      if (c.tagName === 'use') {
        const h = c.getAttribute('href') || c.getAttribute('xlink:href') || '';
        const k = h.lastIndexOf('#');
        return k >= 0 ? h.slice(k + 1).replace(/^(?:icon|i|svg|sprite)[-_]/, '') : '';
      }
      for (const k of (c.getAttribute('class') || '').split(/\s+/)) {
        const m = ICONCLS.exec(k);
        if (m && !ICONMOD.test(m[1])) return m[1];
      }
      return '';
    };
    let found = of(el), n = 0;
    if (!found) {
      for (const c of el.querySelectorAll('i, span, svg, use, [data-icon]')) {
        if (++n > 8) break;
        iconOwner.set(c, el);
        if ((found = of(c))) break;
      }
    }
    // A cross is a close button whatever the icon set calls it ("fa-times", "fa-xmark").
    return found ? cap(ws(found.replace(/^(?:times|xmark)(?=$|[-_])/, 'close').replace(/[-_]+/g, ' ')), 40) : '';
  }

  function derive(el, tag) {
    // Elements without attributes (most cells, items and paragraphs) skip every attribute read.
    const ha = el.hasAttributes();
    const roleAttr = ha ? el.getAttribute('role') : null;
    const role = roleAttr ? roleAttr.trim().split(/\s+/)[0].toLowerCase() : '';
    const type = ha && tag === 'INPUT' ? (el.getAttribute('type') || '').toLowerCase() : '';
    const d = {sid: snapID, ha, role, type, keep: true, cl: null, clDyn: false, editRoot: false, fullRole: '', ariaLabel: '', title: '', alt: '', interactive: false, own: false, include: false, full: false,
      formControl: false, textual: false, isSVG: false, svgName: '', placeholder: '', t: '', tRaw: MAXN, special: true, tn: null, href: '', cls: '', na: null, id: '', tid: null, ariaDisabled: false, ariaOn: false, ariaValue: '', labelledby: false, tip: '', icon: '', current: '', opts: '', strip: false};
    if (type === 'hidden') return d;
    d.strip = ha && isStrip(el, tag, role);
    let kind = d.strip ? 'banner' : LANDMARK_ROLES[role];
    if (kind === undefined) kind = LANDMARKS[tag];
    if (kind !== undefined) {
      d.clDyn = ha && el.hasAttribute('aria-labelledby') && !el.getAttribute('aria-label');
      if (!d.clDyn) d.cl = containerLabel(el, tag, role, d.strip);
    }
    if (ha && el.hasAttribute('contenteditable')) { d.keep = false; d.editRoot = isEditableRoot(el); }
    const r = implicitRole(el, tag, type, d.editRoot);
    // A strip without a role of its own is a region of the page ("the yellow banner").
    const fullRole = d.fullRole = role && role !== 'presentation' && role !== 'none' && role !== 'generic' ? role : d.strip && r === 'text' ? 'region' : r;
    const ariaLabel = d.ariaLabel = ha ? el.getAttribute('aria-label') || '' : '';
    d.title = ha ? el.getAttribute('title') || '' : '';
    d.alt = ha && (tag === 'IMG' || tag === 'AREA' || type === 'image') ? (el.getAttribute('alt') || '') : '';
    const tabindex = ha ? el.getAttribute('tabindex') : null;
    const formControl = d.formControl = tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON';
    d.interactive = formControl || (tag === 'A' && ha && el.hasAttribute('href')) || tag === 'SUMMARY' ||
      INTERACTIVE_ROLES.has(fullRole) || d.editRoot ||
      (tabindex !== null && +tabindex >= 0) || (ha && (el.hasAttribute('onclick') || el.getAttribute('draggable') === 'true'));
    d.own = ownText(el);
    // The element the page marks as the current one of a set (a page, a step) is kept whatever
    // else it is: a step made of a number block and a title block has no text of its own.
    d.current = ha ? currentOf(el.getAttribute('aria-current')) : '';
    d.include = d.interactive || d.own || !!d.current || d.strip || TEXTTAGS.has(tag) || (role && role !== 'presentation' && role !== 'none') ||
      !!ariaLabel || tag === 'IMG' || tag === 'PROGRESS' || tag === 'METER' || ((tag === 'svg' || tag === 'SVG') && !!(ariaLabel || el.querySelector('title')));
    return d;
  }
  // deriveFull adds what only an included element needs.
  function deriveFull(d, el, tag) {
    d.full = true;
    const ha = d.ha, type = d.type;
    d.textual = (tag === 'INPUT' && TEXT_INPUTS.has(type)) || tag === 'TEXTAREA';
    d.labelledby = ha && el.hasAttribute('aria-labelledby');
    d.placeholder = ha ? el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || '' : '';
    if (d.editRoot && !d.placeholder) {
      // Rich text editors show their placeholder from an attribute with CSS (Quill on the
      // editor, ProseMirror and Tiptap on its empty first paragraph).
      const fc = el.firstElementChild;
      d.placeholder = el.getAttribute('data-placeholder') || (fc && fc.getAttribute('data-placeholder')) || '';
    }
    if (tag === 'SELECT') d.opts = optionTexts(el);
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
    if (d.interactive) {
      for (const a of TIPS) { const v = ha && el.getAttribute(a); if (v) { d.tip = v; break; } }
      if (!d.t) d.icon = iconName(el);
    }
    d.ariaDisabled = ha && el.getAttribute('aria-disabled') === 'true';
    // A range widget's value ("40%", "Volume 7 of 10"), as a screen reader says it.
    d.ariaValue = ha && RANGE_ROLES.has(d.fullRole) && tag !== 'INPUT' ? el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || '' : '';
    d.ariaOn = ha && (el.getAttribute('aria-checked') === 'true' || el.getAttribute('aria-pressed') === 'true' || (d.fullRole === 'tab' && el.getAttribute('aria-selected') === 'true'));
  }

  // titleLike reports whether a short text that is not a heading acts as one, as styled divs do
  // in framework markup (<div class="text-lg font-semibold">Billing</div> over a card's fields):
  // the first text of its container, something after it, bold or larger than the body text.
  function titleLike(el, tag, name) {
    const words = name.split(' ').length;
    if (name.length > 60 || words > 8 || tag === 'LABEL' || tag === 'LEGEND' || tag === 'CAPTION' || /[:,;*]$|^\(/.test(name) || words > 3 && name.endsWith('.') ||
      el.hasAttribute('role') || el.hasAttribute('aria-label')) return false;
    const letters = name.match(/\p{L}/gu);
    if (!letters || letters.length * 2 < name.replace(/\s/g, '').length) return false; // "6:00 AM", "$12.40"
    if (el.closest('header,nav,footer,[role=banner],[role=navigation],[role=contentinfo]')) return false; // a logo, a menu's caption
    for (let p = el.previousElementSibling; p; p = p.previousElementSibling) if (p.textContent.trim()) return false;
    let follows = false;
    for (let up = el, k = 0; up && k < 4 && !follows; up = up.parentElement, k++) follows = !!up.nextElementSibling;
    if (!follows || el.closest('a,button,label,[role=button],[role=link],[role=tab],[role=option],[role=menuitem],td,th,[role=cell],[role=gridcell]')) return false;
    if (TITLE_CLASS.test(el.getAttribute('class') || '')) return true;
    const cs = getComputedStyle(el);
    if (bodyFont === 0) bodyFont = parseFloat(getComputedStyle(document.body).fontSize) || 16;
    return +cs.fontWeight >= 600 || parseFloat(cs.fontSize) >= 1.12 * bodyFont;
  }
  let bodyFont = 0;
  // A heading names the section it is in, never more.
  const SECTIONS = new Set(['SECTION', 'ARTICLE', 'ASIDE', 'NAV', 'MAIN', 'HEADER', 'FOOTER', 'FORM', 'FIELDSET', 'DIALOG', 'LI', 'TD', 'TH', 'DETAILS', 'TABLE', 'UL', 'OL']);
  // Classes that style a title, when the stylesheet that would make it look like one is not
  // what decides (it may not have loaded): "card-title", Tailwind's "font-semibold".
  const TITLE_CLASS = /(^|[\s_-])(title|heading|headline|subtitle|font-(semibold|bold|extrabold|black)|fw-(bold|semibold)|text-(lg|xl|[2-4]xl)|h[1-6])($|[\s_-])/i;
  // headingScope is what a heading names: its parent, or, when that parent is only a header bar
  // (the heading and a few actions) that opens a bigger container, that container (a card whose
  // header holds its title); never more than the section it is in.
  function headingScope(el) {
    let c = el.parentNode;
    for (let k = 0; k < 3 && c && c.nodeType === 1; k++) {
      const p = c.parentElement;
      if (!p || p === document.body || SECTIONS.has(c.tagName) || c.hasAttribute('role') || p.firstElementChild !== c || !c.nextElementSibling ||
        c.childElementCount > 3 || c.textContent.length > el.textContent.length + 40) break;
      c = p;
    }
    return c || el;
  }

  const VISIBLE = {visibilityProperty: true, opacityProperty: true};
  // contextOf is an element's context (null for none): its column header hd, the container
  // labels ctxs in force (innermost last) and the last heading, memoized per walk (ctxs arrays
  // are shared by a container's elements).
  let ctxMemo = null;
  function contextOf(hd, ctxs, lastHeading) {
    let m1 = ctxMemo.get(ctxs);
    if (m1 === undefined) { m1 = new Map(); ctxMemo.set(ctxs, m1); }
    let m2 = m1.get(hd);
    if (m2 === undefined) { m2 = new Map(); m1.set(hd, m2); }
    let c = m2.get(lastHeading);
    if (c === undefined) {
      const parts = [];
      if (hd) parts.push(hd);
      for (let i = ctxs.length - 1; i >= 0 && parts.length < 3; i--) if (!parts.includes(ctxs[i])) parts.push(ctxs[i]);
      if (lastHeading && parts.length < 4 && !parts.some(p => p.includes(lastHeading))) parts.push(lastHeading);
      c = parts.length ? cap(parts.length === 1 ? parts[0] : parts.join(' | '), 160) : null;
      m2.set(lastHeading, c);
    }
    return c;
  }
  const valueText = (pwd, v) => pwd ? (v ? '***' : '') : cap(v || '', MAXN);
  // emit writes an element's row: r holds what the DOM decides (see visit), the rest is the
  // element's box, visibility, form state and value now. Table entries are numbered in the order
  // they are written: it writes strictly in wire order.
  // rowState puts a row's element bits and box in tenths of a pixel, for the state read, in
  // sb, sx, sy, sw, sh (no object per row: emit runs for every element of every snapshot).
  let sb = 0, sx = 0, sy = 0, sw = 0, sh = 0;
  function rowState(r, rx, ry, rw, rh, vis, disabled, on, value, t, color) {
    let bits = r.sbits;
    if (color) bits |= 33554432;
    if (!(rw > 0 && rh > 0 && vis)) bits |= 64;
    if (disabled) bits |= 128;
    if (on) bits |= 512;
    if (!disabled && r.edBase) bits |= 256;
    if (t && t !== r.name) bits |= 8;
    else if (t) bits |= 2;
    if (value) bits |= 32768;
    sb = bits; sx = Math.round((rx + r.ox) * 10); sy = Math.round((ry + r.oy) * 10); sw = Math.round(rw * 10); sh = Math.round(rh * 10);
  }
  // keepSent records on a row what was sent of it (rowState's, the text, the value and the
  // colour): the base of a patch (see patchRows).
  function keepSent(r, value, t, color) {
    r.eb = sb; r.ex = sx; r.ey = sy; r.ew = sw; r.eh = sh; r.et = t; r.ev = value; r.ec = r.cls; r.eco = color;
  }
  // fromValues calls f with a row's state as the values V (what recV logs) say, as emit takes it.
  function fromValues(r, V, f) {
    const j = r.vr, t = r.vs >= 0 ? V[r.vs] : r.t;
    const value = r.vx >= 0 ? valueText(r.pwd, V[r.vx]) : r.vs >= 0 ? t : r.av;
    f(r, V[j], V[j + 1], V[j + 2], V[j + 3], r.vv >= 0 && V[r.vv], (r.vd >= 0 && V[r.vd]) || r.ariaDis, r.vc >= 0 ? V[r.vc] : r.ariaOn, value, t, r.vco >= 0 ? V[r.vco] : '');
  }
  // emit writes a row (an element) with the state read, and keeps what it sent.
  function emit(r, rx, ry, rw, rh, vis, disabled, on, value, t, color) {
    rowState(r, rx, ry, rw, rh, vis, disabled, on, value, t, color);
    keepSent(r, value, t, color);
    const bits = sb, name = r.name, x = sx, y = sy, w = sw, h = sh;
    let o = u(bits) + r.head + z(x - px) + z(y - py) + z(w - pw) + z(h - ph) + txt(name);
    px = x; py = y; pw = w; ph = h;
    if (bits & 8) o += txt(t);
    if (bits & 16) o += txt(r.href);
    if (bits & 32) o += txt(r.cls);
    if (bits & 4096) o += txt(r.label);
    if (bits & 8192) o += txt(r.na);
    if (bits & 16384) o += txt(r.id);
    if (value) o += txt(value);
    if (bits & 65536) o += r.typeTok;
    if (bits & 131072) o += txt(r.ph);
    if (bits & 262144) o += txt(r.al);
    if (bits & 524288) o += txt(r.ti);
    if (bits & 1048576) o += txt(r.alt);
    if (bits & 2097152) o += txt(r.tid);
    if (bits & 1) o += r.ctxTok;
    if (bits & 4194304) o += r.itemTok;
    if (bits & 8388608) o += txt(r.cur);
    if (bits & 16777216) o += txt(r.opts);
    if (bits & 33554432) o += txt(color);
    out += o;
  }

  function visit(el, tag, lower, sel, shape, ctxs, parent, ox, oy, scope, depth, cell, covered, inFrame, item) {
    let d = cache.get(el);
    if (d === undefined) {
      d = derive(el, tag);
      if (d.keep) cache.set(el, d); else volatile = true;
    }
    const type = d.type;
    if (type === 'hidden') return;
    if (modal && el === modal) covered = false;

    const cl = d.clDyn ? containerLabel(el, tag, d.role, d.strip) : d.cl;
    if (d.strip) strips.add(el);
    if (cl) ctxs = ctxs.concat([cl]);
    const fullRole = d.fullRole;
    if (tag === 'TD' || tag === 'TH' || ARIACELLS.has(fullRole)) cell = el;

    const isHeading = fullRole === 'heading';
    const control = tag === 'LABEL' ? el.control : null;
    let interactive = d.interactive || !!control;
    const own = d.own;
    let include = d.include || !!control;
    let rect = null, vr = -1;
    if (include) {
      rect = el.getBoundingClientRect();
      vr = recV.length; recEl.push(el); recK.push(1); recV.push(rect.x, rect.y, rect.width, rect.height);
      // No box: display:none subtrees are skipped (display:contents has no box but its children do).
      if (rect.width === 0 || rect.height === 0) {
        const cv = el.checkVisibility();
        recEl.push(el); recK.push(2); recV.push(cv);
        if (!cv) {
          const contents = getComputedStyle(el).display === 'contents';
          recEl.push(el); recK.push(3); recV.push(contents);
          if (!contents) return;
          include = false;
        }
      }
    }
    if (include && !interactive && own && POINTERTAGS.has(tag)) {
      // Clickable or draggable divs and spans: a hand cursor (pointer, grab, move) that is not
      // merely inherited.
      const ptr = HANDCURSORS.has(getComputedStyle(el).cursor);
      recEl.push(el); recK.push(4); recV.push(ptr);
      if (ptr) {
        const p = el.parentElement;
        if (p) {
          const pptr = HANDCURSORS.has(getComputedStyle(p).cursor);
          recEl.push(p); recK.push(4); recV.push(pptr);
          interactive = !pptr;
        } else interactive = true;
      }
    }

    let idx = parent;
    if (include) {
      if (!d.full) deriveFull(d, el, tag);
      idx = els.length;
      els.push(el);
      // sbits are the bits only the DOM decides; emit adds those of layout and form state.
      let sbits = 0;
      if (interactive) sbits |= 4;

      // Selector: the length shared with the previous one, then the rest.
      let sp = 0;
      const lim = Math.min(sel.length, prevSel.length);
      while (sp < lim && sel.charCodeAt(sp) === prevSel.charCodeAt(sp)) sp++;
      if (sp > 0 && (sel.charCodeAt(sp - 1) & 0xFC00) === 0xD800) sp--; // never split a surrogate pair
      const selw = u(sp) + str(sp ? sel.slice(sp) : sel);
      prevSel = sel;
      const rw = rect.width, rh = rect.height;
      let vis = false, vv = -1;
      if (rw > 0 && rh > 0) {
        vis = el.checkVisibility(VISIBLE);
        vv = recV.length; recEl.push(el); recK.push(5); recV.push(vis);
      }
      const formControl = d.formControl, ariaLabel = d.ariaLabel, title = d.title, alt = d.alt, placeholder = d.placeholder, textual = d.textual;
      let disabled = false, vd = -1;
      if (formControl) { disabled = el.matches(':disabled'); vd = recV.length; recEl.push(el); recK.push(6); recV.push(disabled); }
      if (!disabled && d.ariaDisabled) disabled = true;
      if (!disabled && control) { disabled = control.disabled; vd = recV.length; recEl.push(control); recK.push(10); recV.push(disabled); }
      let on = d.ariaOn, vc = -1;
      if (type === 'checkbox' || type === 'radio') { on = el.checked; vc = recV.length; recEl.push(el); recK.push(7); recV.push(on); }
      // What colour it shows, for "the red button": controls, headings and banners only
      // ("the yellow banner": a promo or cookie strip too, see isStrip).
      // Its value slot (vco) lets a re-read recolour the row without a walk (see fromValues).
      let color = '', vco = -1;
      if (interactive || isHeading || d.strip || COLORED_ROLES.has(fullRole)) { color = colorOf(el); vco = recV.length; recEl.push(el); recK.push(13); recV.push(color); }
      const editRoot = d.editRoot;
      const edBase = (textual && !el.readOnly) || editRoot;
      if (covered) sbits |= 1024;
      if (inFrame) sbits |= 2048;

      let label = '';
      const labels = el.labels && labelsOf(el);
      if (labels) label = ws(labels.map(l => text(l, MAXN, true)).join(' '));
      const labelledby = d.labelledby ? byIDs(el, 'aria-labelledby') : '';
      // The name will come from the element's own text: t stands for it when no image or
      // aria-label could make the two differ and the whole subtree fitted.
      const nameFromText = !(labelledby || ariaLabel || label || alt) && !title && !placeholder && !d.isSVG && !textual &&
        tag !== 'SELECT' && tag !== 'INPUT' && (interactive || isHeading || fullRole === 'label');
      let t = d.t, vs = -1;
      if (tag === 'SELECT') { t = selectText(el); vs = recV.length; recEl.push(el); recK.push(9); recV.push(t); }
      if (!label && textual && !labelledby && !ariaLabel && !placeholder && !title) {
        // An unlabeled field: the short text just before it often names it, or just before the
        // wrapper it is the only child of (<div class=field-label>Email</div><div><input></div>).
        let prev = el.previousElementSibling;
        for (let up = el, k = 0; !prev && k < 2 && up.parentElement && up.parentElement.childElementCount === 1; k++) {
          up = up.parentElement;
          prev = up.previousElementSibling;
        }
        if (prev && !prev.matches('input,select,textarea,button') && !prev.querySelector('input,select,textarea,button')) { const pt = text(prev, 60, false); if (pt.length <= 40) label = pt; }
      }
      let value = '', vx = -1;
      const av = d.ariaValue && cap(ws(d.ariaValue), MAXN); // an ARIA range widget's, fixed by its attributes
      const pwd = type === 'password';
      if (tag === 'INPUT' || tag === 'TEXTAREA') {
        const v = el.value;
        vx = recV.length; recEl.push(el); recK.push(8); recV.push(v);
        value = valueText(pwd, v);
      }
      else if (tag === 'SELECT') value = t;
      else if (tag === 'PROGRESS' || tag === 'METER') {
        const v = rangeText(el);
        vx = recV.length; recEl.push(el); recK.push(12); recV.push(v);
        value = v;
      } else value = av;
      let name = labelledby || ariaLabel || label;
      if (!name && alt) name = alt;
      if (!name && d.isSVG) name = d.svgName;
      if (!name && title) name = title;
      if (!name && placeholder) name = placeholder;
      // An input button's name may be its value, which changes without a mutation.
      const nameDyn = !name && tag === 'INPUT' && (type === 'button' || type === 'submit' || type === 'reset');
      if (nameDyn) name = value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      if (!name && !textual && tag !== 'SELECT') {
        if (!(interactive || isHeading || fullRole === 'label')) name = t;
        else if (nameFromText && !d.special && d.tRaw < MAXN) name = t;
        else {
          if (d.tn === null) d.tn = text(el, MAXN, true);
          name = d.tn;
        }
      }
      if (!name && d.tip) name = d.tip;
      if (!name && d.icon) name = d.icon;
      name = cap(ws(name), MAXN);
      const href = d.href, cls = d.cls, na = d.na, id = d.id, tid = d.tid;
      if (href) sbits |= 16;
      if (cls) sbits |= 32;
      if (label) sbits |= 4096;
      if (na) sbits |= 8192;
      if (id) sbits |= 16384;
      if (type) sbits |= 65536;
      if (placeholder) sbits |= 131072;
      if (ariaLabel) sbits |= 262144;
      if (title) sbits |= 524288;
      if (alt) sbits |= 1048576;
      if (tid) sbits |= 2097152;
      if (item) sbits |= 4194304;
      if (d.current) sbits |= 8388608;
      if (d.opts) sbits |= 16777216;

      const hd = cell && cell !== el ? colHeader(cell) : tag === 'TD' || fullRole === 'cell' || fullRole === 'gridcell' ? colHeader(el) : '';
      while (headings.length && !headings[headings.length - 1].scope.contains(el)) headings.pop();
      const lastHeading = headings.length ? headings[headings.length - 1].text : '';
      const ctx = contextOf(hd, ctxs, lastHeading);
      if (ctx !== null) sbits |= 1;

      // Tokens depend on the DOM only: a row keeps their wire form for re-encoding (see emit).
      const pu = u(parent < 0 ? 0 : idx - parent);
      const r = {
        sbits, head: tok(lower) + tok(fullRole) + pu + shapeTok(shape) + selw, ox, oy,
        vr, vv, vd, av, ariaDis: d.ariaDisabled, vc, ariaOn: d.ariaOn, edBase, vs, vx, vco, pwd, nameDyn, t, name,
        href, cls: cls && cap(cls, 100), label: label && cap(label, MAXN), na: na && cap(na, 100), id: id && cap(id, 100),
        typeTok: type ? tok(type) : '', ph: placeholder && cap(ws(placeholder), MAXN), al: ariaLabel && cap(ws(ariaLabel), MAXN),
        ti: title && cap(ws(title), MAXN), alt: alt && cap(ws(alt), MAXN), tid: tid && cap(tid, 100),
        ctxTok: ctx !== null ? tok(ctx) : '',
        itemTok: item ? itemTokOf(item, itemSigs, itemUps) : '',
        cur: d.current, opts: d.opts,
        // The values of the tokens, for when they are numbered again (see retok).
        lower, fullRole, pu, shape: shape.s, selw, type, ctx, item,
      };
      rows.push(r);
      emit(r, rect.x, rect.y, rw, rh, vis, disabled, on, value, t, color);
      if (name && (isHeading ? true : !interactive && !cell && own && titleLike(el, tag, name))) headings.push({text: cap(name, 80), scope: headingScope(el)});
    }

    if (tag === 'SELECT' || tag === 'TEXTAREA') return;
    const sr = el.shadowRoot;
    if (SHADOWABLE.has(lower) || customTag(lower)) { recEl.push(el); recK.push(0); recV.push(sr); }
    if (customTag(lower)) lateTag(el, lower);
    if (sr) {
      if (!watched.has(sr)) watchRoot(sr, el);
      walkRoots.push(sr);
      countIDs(sr);
      walkChildren(sr, sel + ' >>>', shape, ctxs, idx, ox, oy, sel + ' >>> ', depth + 1, cell, covered, inFrame, item);
    }
    if (tag === 'IFRAME') {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { /* cross-origin */ }
      const de = doc && doc.documentElement;
      recEl.push(el); recK.push(11); recV.push(doc, de);
      if (de) {
        const fr = el.getBoundingClientRect();
        recV.push(fr.x, fr.y, el.clientLeft, el.clientTop);
        watch(doc);
        walkDocs.push(doc);
        listen(doc);
        countIDs(doc);
        walkChildren(doc.documentElement, sel + ' >>> html', frameShape(shape), ctxs, idx, ox + fr.x + el.clientLeft, oy + fr.y + el.clientTop, sel + ' >>> ', depth + 1, null, covered, true, 0);
      }
      return;
    }
    walkChildren(el, sel, shape, ctxs, idx, ox, oy, scope, depth + 1, cell, covered, inFrame, item);
  }

  // Replay. A snapshot is a function of the DOM (which the observer watches: any record at all
  // makes the page dirty), of the shadow roots and frame documents met, and of what the walk
  // reads from layout, style and form state (boxes, visibility, display, cursor, disabled,
  // checked, value, selected option, colour, frame offsets), all logged in order in recEl/recK/recV
  // by the last full walk. When the DOM is clean and every logged read gives the same value
  // again, a new walk would make the same reads and decisions and say the same: the last
  // snapshot's elements and body are reused. When only boxes, visibility, form state and
  // colours changed, and none in a way that changes which elements are walked (a box appearing or
  // vanishing, display, cursor, shadow roots, frames), the walk would meet the same elements
  // with the same DOM-derived data: their rows (see visit) are written again with the new
  // values (re-encoding). So are they after class changes, with the new classes and item
  // kinds, when the repeated items are still those the walk found (see rekind). Anything
  // else, and a full walk is taken.
  let recEl = [], recK = [], recV = [], recOK = false, newV = null;
  let lastEls = null, lastRows = null, lastRest = '', lastModal = null;
  // strips are the strips (see isStrip) the walk met; lastStrips those of the last walk.
  let strips = null, lastStrips = new Set();
  let lastItemOf = null, lastItemSigs = null, lastItemUps = null, lastItemGroups = null;
  // rekinded lists the items whose kind reclass changed (see rekind), for the patch that says so;
  // retokDue is set when a patch said so, so the next body written numbers its tokens again.
  let rekinded = [], retokDue = false;
  // rangeText is a progress bar's or meter's value as a share of its range ("40%"): its value
  // property changes without a mutation, so replay reads it again (see remeasure).
  function rangeText(el) {
    const min = el.tagName === 'METER' ? el.min : 0, span = el.max - min;
    if (el.tagName === 'PROGRESS' && el.position < 0) return ''; // indeterminate
    return span > 0 ? Math.round((el.value - min) / span * 100) + '%' : '';
  }
  // optionTexts is what a select's options say, one a line (see Element.Options): at most
  // MAXOPTS, each whitespace-collapsed and capped. They are derived data: adding, removing or
  // renaming an option is a mutation under the select, which drops it (see invalidate).
  function optionTexts(sel) {
    const os = sel.options, out = [];
    for (let i = 0; i < os.length && out.length < MAXOPTS; i++) {
      const o = os[i];
      if (o.hidden) continue;
      const t = cap(ws(o.textContent), MAXOPT).trimEnd();
      if (t) out.push(t);
    }
    return out.join('\n');
  }
  // CURRENTS are the kinds of aria-current ARIA names; any other value but "false" means "true".
  const CURRENTS = new Set(['page', 'step', 'location', 'date', 'time', 'true']);
  function currentOf(v) {
    if (!v) return '';
    v = v.trim().toLowerCase();
    return !v || v === 'false' ? '' : CURRENTS.has(v) ? v : 'true';
  }
  // COLORED_ROLES are the roles besides controls and headings whose colour the snapshot
  // records: banners and alerts are described by it ("the red alert", "the orange banner").
  const COLORED_ROLES = new Set(['alert', 'status', 'banner', 'alertdialog']);
  // STRIP is a class or id that ends with what a promo, announcement or cookie strip is called
  // ("cn-banner", "announcement-bar", "promo-strip", "cookie-consent", "siteNotice", a BEM
  // modifier after it): what users call "the banner" (not the header landmark, ARIA's banner).
  // "banner__title" and "banner-image" are parts of one, not one.
  const STRIP = /(?:^|\s)(?:[\w-]*[-_])?(?:banner|announcement|announcement-bar|promo-(?:bar|strip|banner)|site-?notice|notice-bar|cookie-(?:banner|bar|notice|consent)|alert-bar|notification-bar)(?:--[\w-]+)?(?=\s|$)/i;
  const STRIPTAGS = new Set(['DIV', 'SECTION', 'ASIDE', 'P']);
  // A strip's role, if any, says it is an alert, a status or a region, not a landmark.
  const STRIPROLES = new Set(['', 'region', 'alert', 'status', 'note']);
  // isStrip tells whether el (tag, role: its first ARIA role) is a promo, announcement or
  // cookie strip by its class or id (see STRIP): kept with its colour ("the yellow banner at the
  // top"), and what is in it has the context "banner" ("close the banner").
  function isStrip(el, tag, role) {
    if (!(STRIPTAGS.has(tag) || customTag(tag)) || !STRIPROLES.has(role)) return false;
    return STRIP.test(el.getAttribute('class') || '') || STRIP.test(el.id);
  }
  // stripWords are the words of the class or id that makes el a strip ("announcement-bar" is
  // "announcement bar").
  function stripWords(el) {
    const m = STRIP.exec(el.getAttribute('class') || '') || STRIP.exec(el.id);
    return m ? m[0].replace(/[-_\s]+/g, ' ').trim() : '';
  }
  // stripNow is isStrip of el as its attributes are now (see reclass).
  function stripNow(el) {
    const r = el.getAttribute('role');
    return isStrip(el, el.tagName, r ? r.trim().split(/\s+/)[0].toLowerCase() : '');
  }
  // colorOf is a coarse name of the colour an element shows (see Element.Color): its
  // background's when that is opaque enough and not white, else its text's when that is a
  // clear hue (blue link text), else white for a white background; '' for a gradient or image
  // background, for dark text on a clear background, and for the browser's own button face
  // (an unstyled button's light grey, which no one chose: "the white button" is not it).
  // A style read: it changes with classes and style, which remeasure reads again (kind 13).
  function colorOf(el) {
    const cs = getComputedStyle(el);
    if (cs.backgroundImage !== 'none') return ''; // a gradient or an image: many colours
    const bgc = cs.backgroundColor;
    const bg = bgc === BUTTONFACE ? '' : colorName(bgc);
    if (bg && bg !== 'white') return bg;
    const fg = colorName(cs.color, true);
    return fg || bg;
  }
  // colorName names a computed colour ("rgb(220, 53, 69)" -> "red"), '' when it is (nearly)
  // transparent or not in rgb() form; memoized, as pages use few colours.
  // Text names a colour only when it is a clear hue, not dark: navy text on a white button
  // reads as a white button, a blue link as blue.
  const colorNames = new Map(), textColorNames = new Map();
  // BUTTONFACE is Chromium's default button background (the buttonface system colour).
  const BUTTONFACE = 'rgb(239, 239, 239)';
  function colorName(c, text) {
    const memo = text ? textColorNames : colorNames;
    let n = memo.get(c);
    if (n === undefined) { n = nameRGB(c, text); memo.set(c, n); }
    return n;
  }
  function nameRGB(c, text) {
    const m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(c);
    if (!m || m[4] !== undefined && +m[4] < 0.35) return '';
    const r = +m[1] / 255, g = +m[2] / 255, b = +m[3] / 255;
    const hi = Math.max(r, g, b), lo = Math.min(r, g, b), chroma = hi - lo, l = (hi + lo) / 2;
    if (text && (l < 0.36 || chroma < 0.3)) return '';
    // White is a clearly white one (#f5f5f5 up); #eee and the like are light grey.
    if (chroma < 0.16) return l < 0.22 ? 'black' : l > 0.95 ? 'white' : 'grey';
    if (l > 0.9) return 'white'; // a faint tint: a white card
    let h = hi === r ? ((g - b) / chroma + 6) % 6 : hi === g ? (b - r) / chroma + 2 : (r - g) / chroma + 4;
    h *= 60;
    if (h < 15 || h >= 345) return l > 0.72 ? 'pink' : 'red';
    if (h < 40) return l < 0.3 ? 'red' : 'orange';
    if (h < 65) return 'yellow';
    if (h < 165) return 'green';
    if (h < 255) return 'blue';
    if (h < 290) return 'purple';
    return 'pink';
  }
  function selectText(el) { const o = el.selectedOptions && el.selectedOptions[0]; return o ? ws(o.textContent) : ''; }
  // remeasure reads again what the last full walk read: 0 when all is the same, 1 when only
  // values that re-encoding handles differ (newV then holds all the values), 2 otherwise. With
  // only (indexes of reads, see settleSetup), it reads those alone: strict, it says 2 at the
  // first difference; free, it says 2 at a box that moved and takes other values as above;
  // else it takes new boxes as above and says 3 at the first other value that differs (a
  // field's value may restyle: everything is to be read again).
  function remeasure(only, strict, free) {
    const E = recEl, K = recK, V = recV, J = recJ, n = only ? only.length : E.length;
    let NV = null;
    for (let x = 0; x < n; x++) {
      const i = only ? only[x] : x, el = E[i], j = J[i];
      let v;
      switch (K[i]) {
        case 0: if (el.shadowRoot !== V[j]) return 2; continue;
        case 1: {
          const r = el.getBoundingClientRect();
          const x = r.x, y = r.y, w = r.width, h = r.height;
          if (x !== V[j] || y !== V[j + 1] || w !== V[j + 2] || h !== V[j + 3]) {
            if (strict || free || (w === 0 || h === 0) !== (V[j + 2] === 0 || V[j + 3] === 0)) return 2;
            if (NV === null) NV = V.slice();
            NV[j] = x; NV[j + 1] = y; NV[j + 2] = w; NV[j + 3] = h;
          }
          continue;
        }
        case 2: if (el.checkVisibility() !== V[j]) return 2; continue;
        case 3: if ((getComputedStyle(el).display === 'contents') !== V[j]) return 2; continue;
        case 4: if (HANDCURSORS.has(getComputedStyle(el).cursor) !== V[j]) return 2; continue;
        case 5: v = el.checkVisibility(VISIBLE); break;
        case 6: v = el.matches(':disabled'); break;
        case 7: v = el.checked; break;
        case 8: v = el.value; break;
        case 9: v = selectText(el); break;
        case 10: v = el.disabled; break;
        case 12: v = rangeText(el); break;
        case 13: v = colorOf(el); break;
        case 11: {
          let doc = null;
          try { doc = el.contentDocument; } catch (e) { /* cross-origin */ }
          const de = doc && doc.documentElement;
          if (doc !== V[j] || de !== V[j + 1]) return 2;
          if (de) {
            const fr = el.getBoundingClientRect();
            if (fr.x !== V[j + 2] || fr.y !== V[j + 3] || el.clientLeft !== V[j + 4] || el.clientTop !== V[j + 5]) return 2;
          }
          continue;
        }
        default: return 2;
      }
      if (v !== V[j]) {
        if (only && !free) return strict ? 2 : 3;
        if (NV === null) NV = V.slice();
        NV[j] = v;
      }
    }
    newV = NV;
    return NV === null ? 0 : 1;
  }

  // A settled page. Reading every box and every element's visibility again (remeasure) is most
  // of an unchanged page's snapshot: 2,000 getBoundingClientRect calls cost 4-16 ms on a slow
  // machine, checkVisibility half that. Neither can change unless something does that the
  // page tells cheaply, and when none has, the last snapshot is reused without them:
  //  - the DOM (the observer), form state, shadow roots and frames: remeasure of those reads;
  //  - style beyond the DOM: hover, focus and other user input (counted by listeners), style
  //    sheets (each sheet's rule count and media, and the sheets themselves), media features, the
  //    viewport, the URL's fragment (:target), open popovers, full screen, custom elements
  //    defined since, the checked state of every check box and radio, every select's option;
  //  - layout beyond style: images, videos and fonts that finished loading, animations (a page
  //    with one running is never settled), and scrolling, which moves boxes with no other sign: the
  //    window's offsets, and the box of one element per innermost parent of measured elements
  //    (a scroller moves all of its content, so some innermost parent's first element with it).
  // When only scrolling moved the page (nothing restyled it), the boxes alone are read again;
  // after attribute changes alone, the boxes and the style of what they may restyle (see
  // restyleScope).
  // What escapes: a style rule edited in place (sheet.cssRules[i].style.x = ...), a custom state
  // (:state()), a scroller whose first element per parent is sticky (docs/targets.md).
  let recJ = null, lightRecs = null, boxRecs = null, styleRecs = null, settleVals = null, lastSig = null;
  let walkDocs = [], walkRoots = [], lateTags = [], lateSeen = null, inputs = 0, loads = 0;
  const bump = () => { inputs++; }, bumpLoad = () => { loads++; };
  // User input restyles a page only through its style rules' state pseudo-classes (see
  // stillStyle); loads, transitions and the rest may move anything.
  const INPUT_EVENTS = ['pointerover', 'pointerout', 'pointerdown', 'pointerup', 'mouseover', 'mouseout', 'mousedown', 'mouseup',
    'focusin', 'focusout', 'keydown', 'keyup', 'input', 'change', 'touchstart', 'touchend', 'dragstart', 'dragend', 'drop'];
  const LOAD_EVENTS = ['toggle', 'load', 'error', 'transitionrun', 'animationstart', 'fullscreenchange'];
  const MEDIA = ['(prefers-color-scheme: dark)', '(prefers-reduced-motion: reduce)', '(prefers-contrast: more)', '(forced-colors: active)',
    '(hover: hover)', '(pointer: coarse)', 'print'];
  const listened = new WeakSet(), mqls = new WeakMap();
  // listen counts, in the capture phase, the user input and loads that may restyle doc.
  function listen(doc) {
    if (listened.has(doc)) return;
    listened.add(doc);
    const opts = {capture: true, passive: true};
    for (const t of INPUT_EVENTS) doc.addEventListener(t, bump, opts);
    for (const t of LOAD_EVENTS) doc.addEventListener(t, bumpLoad, opts);
    const w = doc.defaultView;
    if (w) {
      for (const t of ['focus', 'blur']) w.addEventListener(t, bump, opts);
      for (const t of ['resize', 'hashchange']) w.addEventListener(t, bumpLoad, opts);
    }
  }
  // lateTag records a custom element not defined yet (:not(:defined) rules hide such).
  function lateTag(el, lower) {
    const w = el.ownerDocument.defaultView, reg = w && w.customElements;
    if (!reg || reg.get(lower) || lateSeen.has(reg) && lateSeen.get(reg).has(lower)) return;
    if (!lateSeen.has(reg)) lateSeen.set(reg, new Set());
    lateSeen.get(reg).add(lower);
    lateTags.push(reg, lower);
  }
  // settleSetup, after a walk, picks the reads a settled page needs again (see remeasure's
  // only): all but boxes, visibility, display and cursor, and one box per parent.
  function settleSetup() {
    const K = recK, V = recV, n = K.length, J = new Int32Array(n);
    for (let i = 0, j = 0; i < n; i++) {
      J[i] = j;
      const k = K[i];
      j += k === 1 ? 4 : k === 11 ? (V[j + 1] ? 6 : 2) : 1;
    }
    recJ = J;
    const sized = j => V[j + 2] > 0 && V[j + 3] > 0;
    // One box per parent of measured elements, for the parents with no other such parent
    // inside them: any scroller around measured elements holds one of those (see above).
    const parents = new Map(); // parent -> the read of its first measured element with a size
    for (let i = 0; i < n; i++) {
      if (K[i] !== 1) continue;
      const p = recEl[i].parentNode, at = parents.get(p);
      if (at === undefined || !sized(J[at]) && sized(J[i])) parents.set(p, i);
    }
    const inner = new Set();
    for (const p of parents.keys()) {
      for (let a = up(p); a && !inner.has(a); a = up(a)) if (parents.has(a)) inner.add(a);
    }
    const only = [];
    for (let i = 0; i < n; i++) {
      const k = K[i];
      // Boxes, visibility, display and cursor change only with what signals reads or with a
      // mutation; so does disabled (its attribute reflects the property).
      if (k === 1 ? !inner.has(recEl[i].parentNode) && parents.get(recEl[i].parentNode) === i : k === 0 || k > 6 && k !== 10 && k !== 13) only.push(i);
    }
    lightRecs = only;
    // After a scroll alone (style unchanged), every box but no style is read again.
    const boxes = [];
    // After attribute changes, every box and the style of what they may restyle (see
    // restyleScope).
    const styles = [];
    for (let i = 0; i < n; i++) (K[i] < 2 || K[i] > 6 && K[i] !== 10 && K[i] !== 13 ? boxes : styles).push(i);
    boxRecs = boxes;
    styleRecs = styles;
  }
  // Style rules that follow user input: a selector with a state pseudo-class (:hover, :focus,
  // :checked, :placeholder-shown...) that sets anything but paint (colours, backgrounds,
  // outlines, shadows, decorations), or a field sized by its content. A page with none of them
  // lays out and shows the same whatever the pointer, focus, keys and form state do: after
  // input, only the form state itself is read again (measureAgain).
  const STATE_PSEUDO = /:(hover|active|focus|focus-within|focus-visible|checked|indeterminate|placeholder-shown|valid|invalid|user-valid|user-invalid|in-range|out-of-range|autofill|-webkit-autofill|blank|open)(?![\w-])/;
  const PAINT_ONLY = /^(color|background(-.*)?|outline(-.*)?|box-shadow|text-shadow|text-decoration(-.*)?|text-underline-.*|border(-[a-z]+)*-color|caret-color|accent-color|fill(-.*)?|stroke(-.*)?|transition(-.*)?)$/;
  // sheetStill: sheet -> what sheetOK keeps of stillRules.
  const sheetStill = new WeakMap();
  function stillRules(rules, imports) {
    for (const r of rules) {
      if (r.type === 3) { imports.push(r); continue; } // CSSRule.IMPORT_RULE
      const st = r.style;
      if (st) {
        if (st.getPropertyValue('field-sizing')) return false;
        if (r.selectorText && STATE_PSEUDO.test(r.selectorText)) {
          for (let i = 0; i < st.length; i++) if (!PAINT_ONLY.test(st[i])) return false;
        }
      }
      if (r.cssRules && r.cssRules.length && !stillRules(r.cssRules, imports)) return false; // @media, nesting
    }
    return true;
  }
  function stillStyle() { return sheetsOK(sheetStill, stillRules); }
  // Rules that restyle more than an element and its later siblings, and what is under them,
  // when the element's attributes change: a selector with :has() (a class on a child restyles
  // its parent, or the whole page through body:has(...)) or :nth-last-child(of S) (an earlier
  // sibling), and container queries (a class that resizes a box resizes containers anywhere, and
  // restyles what is in them). On a page with none of them, an attribute restyles only what
  // descendant, child and sibling combinators (and :nth-child(of S)) reach from the element
  // (see restyleScope).
  const sheetScoped = new WeakMap();
  const REACHING = /:has\(|:nth-last-child\([^)]* of /;
  function scopedRules(rules, imports) {
    for (const r of rules) {
      if (r.type === 3) { imports.push(r); continue; }
      if (r.selectorText && REACHING.test(r.selectorText) || r.containerQuery !== undefined) return false;
      if (r.start !== undefined && (String(r.start) + String(r.end)).includes(':has(')) return false; // @scope
      if (r.cssRules && r.cssRules.length && !scopedRules(r.cssRules, imports)) return false;
    }
    return true;
  }
  function scopedStyle() { return sheetsOK(sheetScoped, scopedRules); }
  // Rules that restyle an element's later siblings when its attributes change: a sibling
  // combinator (a + b, a ~ b) or :nth-child(An+B of S). On a page with none of them (many pages
  // have none; a framework's sheet often has some) an attribute restyles only what is under the
  // element, and a class toggled on the first of 300 cards is read again in that card alone.
  // Any "~" or "+" outside an :nth-*() argument counts (an attribute's ~= too: to be safe).
  const sheetSibling = new WeakMap();
  const SIBLING = /~|\+(?![\s\d]*\))|:nth-child\([^)]* of /;
  function siblingFreeRules(rules, imports) {
    for (const r of rules) {
      if (r.type === 3) { imports.push(r); continue; }
      if (r.selectorText && SIBLING.test(r.selectorText)) return false;
      if (r.start !== undefined && SIBLING.test(String(r.start) + String(r.end))) return false; // @scope
      if (r.cssRules && r.cssRules.length && !siblingFreeRules(r.cssRules, imports)) return false;
    }
    return true;
  }
  function siblingFree() { return sheetsOK(sheetSibling, siblingFreeRules); }
  // sheetOK tells whether rulesOK holds of the rules of sheet sh and of the sheets it imports,
  // cached in cache as [rule count, rulesOK of its own rules, its @import rules]: an imported
  // sheet that loads later changes no count of the sheet importing it, so it is looked at anew.
  function sheetOK(sh, cache, rulesOK) {
    let rules;
    try { rules = sh.cssRules; } catch (e) { return false; } // cross-origin: unknown
    const n = rules.length;
    let c = cache.get(sh);
    if (!c || c[0] !== n) {
      const imports = [];
      c = [n, rulesOK(rules, imports), imports];
      cache.set(sh, c);
    }
    if (!c[1]) return false;
    for (const r of c[2]) if (r.styleSheet && !sheetOK(r.styleSheet, cache, rulesOK)) return false;
    return true;
  }
  // sheetsOK tells whether rulesOK holds of every sheet of the walked documents and shadow roots.
  function sheetsOK(cache, rulesOK) {
    const roots = walkDocs.concat(walkRoots);
    for (const root of roots) {
      for (const sh of root.styleSheets) if (!sh.disabled && !sheetOK(sh, cache, rulesOK)) return false;
      if (root.adoptedStyleSheets) for (const sh of root.adoptedStyleSheets) if (!sh.disabled && !sheetOK(sh, cache, rulesOK)) return false;
    }
    return true;
  }
  // restyleScope is, after changes of attributes alone (restyled), the reads of style
  // (visibility, display, cursor, disabled, colour) of the elements they may restyle: the changed
  // elements, their later siblings (unless no rule reaches them: siblingFree), and what is under
  // them in the flat tree (shadow trees, and what a slot shows: inheritance follows it). null when that is not known: too many changes;
  // or since the last snapshot, something that restyles anything (a sheet, the viewport, a
  // load: signals), or user input on a page whose style follows it; or the page's rules reach
  // further (scopedStyle).
  function restyleScope(sig) {
    if (restyled === null || !restyled.size || lastSig === null || sig === null || !same(sig[0], lastSig[0])) return null;
    if (!same(sig[2], lastSig[2]) && !stillStyle() || !scopedStyle()) return null;
    const tops = new Set(), sibs = !siblingFree();
    for (const t of restyled) for (let e = t; e && !tops.has(e); e = sibs ? e.nextElementSibling : null) tops.add(e);
    // Whether a node is under one of tops, remembered for every node on the way up.
    const memo = new Map(), path = [];
    const under = n => {
      let r = false;
      for (let a = n; a; a = a.assignedSlot || up(a)) {
        if (tops.has(a)) { r = true; break; }
        const m = memo.get(a);
        if (m !== undefined) { r = m; break; }
        path.push(a);
      }
      for (const a of path) memo.set(a, r);
      path.length = 0;
      return r;
    };
    const E = recEl, only = [];
    for (const i of styleRecs) if (under(E[i])) only.push(i);
    store.restyleReads = only.length; // tests see how far a restyle reached by it
    return only;
  }
  function sheetsOf(root, s) {
    const L = root.styleSheets;
    s.push(L.length);
    for (let i = 0; i < L.length; i++) sheetOf(L[i], s);
    const A = root.adoptedStyleSheets;
    if (A) { s.push(A.length); for (const a of A) sheetOf(a, s); }
  }
  function sheetOf(sh, s) {
    let n = -1;
    try { n = sh.cssRules.length; } catch (e) { /* cross-origin */ }
    s.push(sh, sh.disabled, sh.media.mediaText, n);
  }
  // signals reads what restyles or moves a page without a mutation (see above), null when the
  // page is animating or a read failed (a page's own overrides): such a page is never settled.
  function signals() {
    try { return signalsNow(); } catch (e) { return null; }
  }
  // They come in three parts: [what moves or restyles anything, scroll offsets, user input and
  // form state] (see measureAgain).
  function signalsNow() {
    const s = [loads], sc = [], u = [inputs];
    for (const doc of walkDocs) {
      const w = doc.defaultView;
      if (!w) { s.push(null); continue; }
      // A running animation moves or restyles the page; a finished one that holds its end
      // (fill: forwards, common in entrance effects) or a paused one does not.
      // Their count tells a new one that ended before this read (a script's el.animate on a click).
      if (doc.getAnimations) {
        const as = doc.getAnimations();
        for (const a of as) if (a.playState === 'running') return null;
        s.push(as.length);
      }
      const vv = w.visualViewport, f = doc.fonts;
      sc.push(w.scrollX, w.scrollY);
      s.push(w.innerWidth, w.innerHeight, w.devicePixelRatio, vv ? vv.scale : 1, w.location.hash,
        doc.fullscreenElement, f ? f.status : '', f ? f.size : 0);
      u.push(doc.activeElement, doc.hasFocus());
      let q = mqls.get(w);
      if (!q) { q = MEDIA.map(m => w.matchMedia(m)); mqls.set(w, q); }
      for (const m of q) s.push(m.matches);
      let loading = 0;
      for (const im of doc.images) if (!im.complete) loading++;
      for (const v of doc.getElementsByTagName('video')) if (v.readyState < 1) loading++;
      s.push(loading);
      for (const inp of doc.getElementsByTagName('input')) {
        const t = inp.type;
        if (t === 'checkbox' || t === 'radio') u.push(inp.checked, inp.indeterminate);
      }
      for (const sel of doc.getElementsByTagName('select')) u.push(sel.selectedIndex);
      let pop = -1;
      try { pop = doc.querySelectorAll(':popover-open').length; } catch (e) { /* no popovers */ }
      s.push(pop);
      sheetsOf(doc, s);
    }
    for (const r of walkRoots) { u.push(r.activeElement); sheetsOf(r, s); }
    for (let i = 0; i < lateTags.length; i += 2) s.push(!!lateTags[i].get(lateTags[i + 1]));
    return [s, sc, u];
  }
  function same(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  // measureAgain re-reads what the last walk read, as remeasure(null) does, or less when sig (the
  // signals now) and those of the last snapshot allow: nothing (0, settled: store.settled counts
  // it); boxes and form state alone after a scroll that restyled nothing (store.boxed); after
  // user input (typing, a click on a check box, focus, hover) on a page whose style rules do not
  // follow it (stillStyle), the settled page's reads with form state free to change (store.formed).
  function measureAgain(sig) {
    if (!classed.size && settleVals !== null && sig !== null && same(sig[0], settleVals[0])) {
      if (same(sig[2], settleVals[2])) {
        if (same(sig[1], settleVals[1]) && remeasure(lightRecs, true) === 0) {
          store.settled = (store.settled || 0) + 1;
          return 0;
        }
        const k = remeasure(boxRecs, false);
        if (k !== 3) {
          store.boxed = (store.boxed || 0) + 1;
          return k;
        }
      } else if (same(sig[1], settleVals[1]) && stillStyle()) {
        const k = remeasure(lightRecs, false, true);
        if (k !== 2) {
          store.formed = (store.formed || 0) + 1;
          return k;
        }
      }
    }
    // After attribute changes alone (a class, a style, aria-expanded: what a click often
    // does): every box, and the style of what they may restyle.
    const only = restyleScope(sig);
    if (only !== null) {
      const k = remeasure(boxRecs, false);
      if (k === 2) return 2;
      if (k !== 3) {
        const boxed = newV;
        if (remeasure(only, false, true) === 2) return 2;
        if (boxed !== null && newV !== null) for (const i of only) boxed[recJ[i]] = newV[recJ[i]];
        if (boxed !== null) newV = boxed;
        store.scoped = (store.scoped || 0) + 1;
        return newV === null ? 0 : 1;
      }
    }
    return remeasure(null, false);
  }

  // reclass takes what the last walk's rows need before they are written again with the values V
  // (what recV logs, read anew): -1 when a name depends on a value that changed or the repeated
  // items are not those the walk found (a walk is needed), 1 when an item's kind changed (listed
  // in rekinded: a patch says so, a body numbers its tokens again), else 0.
  function reclass(V) {
    const V0 = recV, R = lastRows;
    for (const r of R) if (r.nameDyn && V[r.vx] !== V0[r.vx]) return -1;
    let renamed = false;
    rekinded = [];
    if (classed.size) {
      const checked = new Set();
      const at = new Map(lastEls.map((e, i) => [e, i])); // one pass, not an indexOf per change
      for (const e of classed) {
        if (lastStrips.has(e) || stripNow(e)) return -1; // a strip's row, context and its words
        const p = e.parentNode;
        if (itemTag(e.tagName) && !checked.has(p)) {
          checked.add(p);
          const k = rekind(p);
          if (k < 0) return -1;
          if (k > 0) renamed = true;
        }
        const i = at.get(e);
        if (i === undefined) continue;
        const cls = typeof e.className === 'string' ? ws(e.className) : '';
        const r = R[i];
        r.cls = cls && cap(cls, 100);
        r.sbits = cls ? r.sbits | 32 : r.sbits & ~32;
      }
      classed.clear();
    }
    return renamed ? 1 : 0;
  }
  // reencode writes the last walk's rows again with the values V: the rest of the body (see
  // snap). renamed (see reclass) numbers their tokens again.
  function reencode(V, renamed) {
    const R = lastRows;
    texts = new Map(); nTexts = 0; out = ''; px = py = pw = ph = 0;
    renamed = renamed || retokDue;
    retokDue = false;
    try {
      if (renamed) { tokens = new Map(); nTokens = 0; described = []; }
      for (const r of R) {
        if (renamed) retok(r);
        fromValues(r, V, emit);
      }
      return u(R.length) + out;
    } finally {
      texts = tokens = described = null; out = '';
    }
  }
  // patchRows is the difference of the rows written with the values V from what was last sent
  // of them (see emit), for a caller that holds the last snapshot: the count of rows that
  // changed, then for each the number of rows skipped before it, its bits, the change of its
  // box (each of x, y, w, h less the change of the row patched before it: a scroll that moves
  // every box alike costs a few characters a row), what of its text, value, class and colour
  // changed (1, 2, 4, 8) and those strings; then the count of items whose kind changed (see rekind) and for
  // each its number and new kind (a string). Neither the page nor the caller writes the body
  // again.
  function patchRows(V, kinds) {
    const R = lastRows;
    let o = '', n = 0, i = 0, last = -1, pdx = 0, pdy = 0, pdw = 0, pdh = 0;
    const patch = (r, rx, ry, rw, rh, vis, disabled, on, value, t, color) => {
      rowState(r, rx, ry, rw, rh, vis, disabled, on, value, t, color);
      const what = (t !== r.et ? 1 : 0) | (value !== r.ev ? 2 : 0) | (r.cls !== r.ec ? 4 : 0) | (color !== r.eco ? 8 : 0);
      if (!what && sb === r.eb && sx === r.ex && sy === r.ey && sw === r.ew && sh === r.eh) return;
      const dx = sx - r.ex, dy = sy - r.ey, dw = sw - r.ew, dh = sh - r.eh;
      o += u(i - last - 1) + u(sb) + z(dx - pdx) + z(dy - pdy) + z(dw - pdw) + z(dh - pdh) + u(what);
      if (what & 1) o += str(t || '');
      if (what & 2) o += str(value || '');
      if (what & 4) o += str(r.cls || '');
      if (what & 8) o += str(color);
      pdx = dx; pdy = dy; pdw = dw; pdh = dh; last = i; n++;
      keepSent(r, value, t, color);
    };
    for (; i < R.length; i++) fromValues(R[i], V, patch);
    o = u(n) + o + u(kinds.length);
    for (const it of kinds) o += u(it) + str(lastItemSigs[it]);
    if (kinds.length) retokDue = true;
    return o;
  }
  // rekind decides again, as walkChildren does, which of node's children are repeated items and
  // of what kind, now that classes changed: -1 when they are not the items the last walk found
  // (it must walk again), else whether a kind changed (updated in lastItemSigs). A container
  // the walk did not reach has no items: its children count as changed, to be safe.
  function rekind(node) {
    if (!node) return -1;
    const reps = repeatsOf(node);
    let renamed = 0;
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
      const tag = c.tagName;
      if (!itemTag(tag)) continue;
      const sg = itemSig(c);
      const is = !c.hidden && repeated(reps, c, tag, sg);
      const it = lastItemOf.get(c);
      if (is !== (it !== undefined)) return -1;
      if (!is) continue;
      const kind = itemKind(infoOf(tag).lower, sg, lastItemGroups[it]);
      if (kind !== lastItemSigs[it]) { lastItemSigs[it] = kind; rekinded.push(it); renamed = 1; }
    }
    return renamed;
  }
  // retok numbers a row's tokens again, in wire order (as visit does), for a re-encoding in
  // which an item's kind changed: a kind new to the table, or one no longer used where it was
  // first, renumbers every token after it.
  function retok(r) {
    r.head = tok(r.lower) + tok(r.fullRole) + r.pu + tok(r.shape) + r.selw;
    r.typeTok = r.type ? tok(r.type) : '';
    r.ctxTok = r.ctx !== null ? tok(r.ctx) : '';
    r.itemTok = r.item ? itemTokOf(r.item, lastItemSigs, lastItemUps) : '';
  }
  // itemTokOf is an element's container on the wire: its number, kind and the container around
  // it; then, for each container further out that this snapshot has not described yet, its
  // kind and the one around it (a card made only of a name block and a buttons block has no
  // element of its own to say what it is). described is reset with each encoding, which
  // writes rows in order, so the decoder can tell from what it has read whether more follows.
  let described = null;
  function itemTokOf(item, sigs, ups) {
    let o = u(item) + tok(sigs[item]) + u(ups[item]);
    described[item] = true;
    for (let a = ups[item]; a && !described[a]; a = ups[a]) {
      described[a] = true;
      o += tok(sigs[a]) + u(ups[a]);
    }
    return o;
  }
  function findModal() {
    let m = null;
    try { m = document.querySelector('dialog:modal'); } catch (e) { /* old engines */ }
    if (!m) {
      for (const a of document.querySelectorAll('[aria-modal="true"]')) {
        if (a.checkVisibility()) { m = a; break; }
      }
    }
    return m;
  }

  // snap takes a snapshot and returns its body (the wire format without the generation), or,
  // when the caller holds the last snapshot (held) and the page's elements are the same, an
  // object whose p is the patch to it (see patchRows); fresh drops the derived data of earlier
  // snapshots first and walks the page anew.
  function snap(fresh, held) {
    if (fresh) { cache = new WeakMap(); iconOwner = new WeakMap(); }
    watch(document);
    invalidate(mo.takeRecords());
    // Modal: elements outside an open modal dialog are covered.
    const m = findModal();
    if (!fresh && !dirty && recOK && m === lastModal) {
      // Read before the re-read, and as true after it: nothing runs in between, and a re-read
      // that starts a font or an image loading only makes the next snapshot read again.
      const sig = signals();
      const k = measureAgain(sig);
      const nv = newV;
      newV = null;
      const V = nv || recV, unchanged = k === 0 && !classed.size;
      const rc = k === 2 ? -1 : unchanged ? 0 : reclass(V);
      if (rc >= 0) {
        let rest = null, patch = null;
        if (held) patch = patchRows(V, rc === 1 ? rekinded : []);
        else rest = unchanged && lastRest !== null ? lastRest : reencode(V, rc === 1);
        if (nv) recV = nv;
        settleVals = lastSig = sig;
        restyled = new Set();
        const gen = ++store.gen;
        store.snaps.set(gen, lastEls);
        for (const g of store.snaps.keys()) if (g <= gen - 8) store.snaps.delete(g);
        const head = str(location.href) + str(document.title);
        if (patch !== null) {
          store.patches = (store.patches || 0) + 1;
          lastRest = null; // the rows moved on from the last body: written again when asked for
          return {p: head + patch};
        }
        if (rest === lastRest) store.replays = (store.replays || 0) + 1;
        else { store.reencodes = (store.reencodes || 0) + 1; lastRest = rest; }
        return head + rest;
      }
    }
    modal = m;
    store.walks = (store.walks || 0) + 1; // tests tell a walk from a replay by it
    dirty = false; recOK = false; classed.clear(); settleVals = lastSig = null; restyled = new Set();
    if (nShapes > 20000) { shapeRoot = newShape('body'); nShapes = 0; }
    try {
      for (let pass = 0; pass < 2; pass++) {
        snapID++; stale = false; volatile = false;
        tokens = new Map(); nTokens = 0; texts = new Map(); nTexts = 0; out = ''; prevSel = ''; px = py = pw = ph = 0;
        els = []; rows = []; idCount = new Map(); headings = []; bodyFont = 0; hdrMemo = new Map(); gapMemo = new Map(); ctxMemo = new Map(); labelMaps = new Map(); rowMemo = new Map(); colMemo = new Map();
        recEl = []; recK = []; recV = []; strips = new Set();
        walkDocs = [document]; walkRoots = []; lateTags = []; lateSeen = new Map();
        listen(document);
        countIDs(document);
        nItems = 0; nGroups = 0; itemSigs = ['']; itemUps = [0]; itemOf = new Map(); itemGroups = [0]; described = [];
        if (document.body) walkChildren(document.body, 'body', shapeRoot, [], -1, 0, 0, '', 0, null, !!modal, false, 0);
        if (!stale) break;
      }
      const gen = ++store.gen;
      store.snaps.set(gen, els);
      for (const g of store.snaps.keys()) if (g <= gen - 8) store.snaps.delete(g);
      const rest = u(els.length) + out;
      // A walk that met a new shadow root twice, or elements whose derived data is not kept,
      // is never replayed.
      recOK = !stale && !volatile && !dirty;
      lastEls = els; lastRows = rows; lastRest = rest; lastModal = modal; lastStrips = strips;
      lastItemOf = itemOf; lastItemSigs = itemSigs; lastItemUps = itemUps; lastItemGroups = itemGroups;
      if (!recOK) { recEl = []; recK = []; recV = []; lastRows = null; } else { settleSetup(); settleVals = lastSig = signals(); }
      return str(location.href) + str(document.title) + rest;
    } finally {
      itemSigs = itemUps = itemOf = itemGroups = described = lateSeen = null;
      tokens = texts = els = rows = idCount = headings = hdrMemo = gapMemo = ctxMemo = labelMaps = rowMemo = colMemo = modal = null; out = prevSel = '';
    }
  }

  // The message (see the header): the whole body, or its difference from the body of the
  // generation the caller holds, when that is the last one sent.
  const docID = (() => {
    const b = new Uint8Array(12);
    crypto.getRandomValues(b);
    let s = '';
    for (const c of b) s += B64[c & 63] + B64[c >> 6];
    return s;
  })();
  // The caller that holds the last snapshot sent holds the body last sent whole or as a
  // difference (sentBody), patched since by every patch sent.
  let sentGen = 0, sentBody = null;
  return function snapW10(haveDoc, haveGen, fresh) {
    const held = sentBody !== null && haveDoc === docID && haveGen === sentGen;
    const body = snap(!!fresh, held);
    const gen = store.gen;
    sentGen = gen;
    if (typeof body !== 'string') return 'P' + u(gen) + body.p;
    const msg = held ? 'D' + u(gen) + delta(sentBody, body) : 'F' + str(docID) + u(gen) + body;
    sentBody = body;
    return msg;
  };
  // delta is the length of b's prefix and suffix that a has too (in UTF-16 code units, never
  // splitting a surrogate pair), then the rest of b.
  function delta(a, b) {
    if (a === b) return u(a.length) + 'A';
    const la = a.length, lb = b.length, lim = Math.min(la, lb);
    let p = 0;
    while (p < lim && a.charCodeAt(p) === b.charCodeAt(p)) p++;
    if (p > 0 && (b.charCodeAt(p - 1) & 0xFC00) === 0xD800) p--;
    let s = 0;
    const slim = lim - p;
    while (s < slim && a.charCodeAt(la - 1 - s) === b.charCodeAt(lb - 1 - s)) s++;
    if (s > 0 && (b.charCodeAt(lb - s) & 0xFC00) === 0xDC00) s--;
    return u(p) + u(s) + b.slice(p, lb - s);
  }
  }
}
