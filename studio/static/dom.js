// dom.js: the studio's whole "framework": h() builds elements, a few formatters. Views are
// functions that build DOM from data and rebuild the part that changes.

// h builds an element. attrs: class, text, on<event> handlers, boolean and value properties,
// data-* and aria-* attributes; children: nodes, strings, numbers, arrays; null/false are skipped.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'value' || k === 'checked' || k === 'selected' || k === 'disabled') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// replace swaps el's children for the given ones.
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// ago says how long ago an ISO time was, in words.
export function ago(iso) {
  if (!iso) return '';
  const s = Math.round((Date.now() - new Date(iso).getTime()) / 1000);
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(iso).toLocaleString();
}

// duration formats milliseconds for people.
export function duration(ms) {
  if (ms === undefined || ms === null) return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
}

// pretty is JSON for reading.
export function pretty(v) {
  return JSON.stringify(v, null, 2);
}

// statusBadge is a run or step status as a coloured label.
export function statusBadge(status) {
  return h('span', { class: `badge status-${status}`, text: status.replace('_', ' ') });
}

// copyText copies to the clipboard, falling back to a selected textarea where the Clipboard API
// is unavailable (plain http on a non-loopback host).
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', { class: 'offscreen' }, text);
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}

// copyButton is a button that copies text() and says so.
export function copyButton(label, text) {
  const b = h('button', { type: 'button', class: 'small', text: label });
  b.addEventListener('click', async () => {
    const ok = await copyText(typeof text === 'function' ? text() : text);
    b.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => { b.textContent = label; }, 1500);
  });
  return b;
}

// errorBox shows an API error in words.
export function errorBox(err) {
  return h('div', { class: 'error-box', role: 'alert' }, err.message || String(err));
}
