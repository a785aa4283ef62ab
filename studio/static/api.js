// api.js: every call the studio makes goes to rodeo's own API with the signed-in key as
// Authorization: Bearer. The key lives in sessionStorage (gone when the tab closes) and never in
// a URL; images and event streams are fetched with the header too, never with the key in a query.

const KEY = 'rodeo.key';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  signIn: (k) => sessionStorage.setItem(KEY, k),
  signOut: () => sessionStorage.removeItem(KEY),
};

// ApiError carries the API's error body: code, message, details [{node, field, problem}].
export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || `HTTP ${status}`);
    this.status = status;
    this.code = body.code;
    this.details = body.details || [];
  }
}

let onUnauthorized = () => {};
// whenUnauthorized sets what happens when the key stops working mid-session (revoked).
export function whenUnauthorized(fn) { onUnauthorized = fn; }

function headers(extra) {
  const hd = { Accept: 'application/json', ...extra };
  const k = session.key();
  if (k) hd.Authorization = `Bearer ${k}`;
  return hd;
}

// api calls method path with an optional JSON body and answers the parsed JSON.
export async function api(method, path, body, { quiet401 = false } = {}) {
  const init = { method, headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
  if (body !== undefined) init.body = JSON.stringify(body);
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, { code: 'unreachable', message: `rodeo did not answer (${e.message}). Is the server running?` });
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    const err = new ApiError(res.status, (data && data.error) || { code: `http_${res.status}`, message: text || res.statusText });
    if (res.status === 401 && !quiet401) onUnauthorized(err);
    throw err;
  }
  return data;
}

export const get = (path, opts) => api('GET', path, undefined, opts);

// blobURL fetches a binary resource (an artifact) with the key and answers an object URL.
export async function blobURL(path) {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) throw new ApiError(res.status, { message: `could not load ${path}: HTTP ${res.status}` });
  return URL.createObjectURL(await res.blob());
}

// events reads a Server-Sent Events stream with the key in the header (EventSource cannot send
// one) and calls onEvent(type, data) for each event until the stream ends or signal aborts.
export async function events(path, onEvent, signal) {
  const res = await fetch(path, { headers: headers({ Accept: 'text/event-stream' }), signal });
  if (!res.ok || !res.body) throw new ApiError(res.status, { message: `event stream: HTTP ${res.status}` });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value;
    let end;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      let type = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length) {
        let parsed;
        try { parsed = JSON.parse(data.join('\n')); } catch { parsed = data.join('\n'); }
        onEvent(type, parsed);
      }
    }
  }
}

// enc percent-encodes one path segment (script names may hold spaces).
export const enc = encodeURIComponent;
