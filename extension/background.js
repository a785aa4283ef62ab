// rodeo companion: the service worker.
//
// It keeps one WebSocket to the rodeo server (GET /extension/connect), authenticates with the
// account's API key, and then does what the server asks for a run: open a tab (a new active tab,
// or for a background run a tab in a new unfocused window), attach chrome.debugger to it, relay
// DevTools protocol commands and events for that tab, and detach (closing a background run's
// window) when the run ends. The server drives the tab with the same code that drives its own browsers, so
// every node and its verification runs unchanged.
//
// Security: the server can only reach tabs this worker opened for a run; commands for any other
// tab are refused. The key is never logged.
'use strict';

const PROTOCOL_VERSION = '1.3';
const PING_MS = 20000; // < 30 s: a WebSocket exchanging messages keeps an MV3 worker alive (Chrome 116+)
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30000;
const CLOSE_AUTH = 4401; // the server refused the key: wait for new settings before retrying
const VERSION = chrome.runtime.getManifest().version;

let ws = null; // the current socket (connecting or open)
let welcomed = false;
let backoff = BACKOFF_MIN_MS;
let retryTimer = null;
let pingTimer = null;
let authRefused = false;
// Tabs opened for runs: tabId -> {run, close, windowId}.
const runTabs = new Map();

async function loadSettings() {
  const s = await chrome.storage.local.get(['server', 'key']);
  return {server: String(s.server || '').trim(), key: String(s.key || '').trim()};
}

function setStatus(state, detail) {
  // The options page shows it; chrome.storage.session is visible to extension pages only.
  chrome.storage.session.set({status: {state, detail: detail || '', at: Date.now()}}).catch(() => {});
}

// connectURL turns the server's base URL into its WebSocket endpoint (a path prefix is kept).
function connectURL(server) {
  const base = new URL(server.endsWith('/') ? server : server + '/');
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('the server URL must start with http:// or https://');
  const u = new URL('extension/connect', base);
  u.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.href;
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

async function connect() {
  if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
  if (ws || authRefused) return;
  const settings = await loadSettings();
  if (ws) return; // another call got there while the settings loaded
  if (!settings.server || !settings.key) { setStatus('not configured', 'set the server URL and the API key in the options'); return; }
  let url;
  try { url = connectURL(settings.server); } catch (e) { setStatus('error', e.message); return; }
  const sock = new WebSocket(url);
  ws = sock;
  welcomed = false;
  setStatus('connecting', url);
  sock.onopen = () => sock.send(JSON.stringify({type: 'hello', key: settings.key, version: VERSION, agent: navigator.userAgent}));
  sock.onmessage = (ev) => { if (sock === ws) onMessage(ev.data); };
  sock.onerror = () => {}; // onclose follows with the details
  sock.onclose = (ev) => onClose(sock, ev);
}

function onClose(sock, ev) {
  if (sock !== ws) return;
  ws = null;
  welcomed = false;
  if (pingTimer) { clearInterval(pingTimer); pingTimer = null; }
  releaseAll();
  if (ev.code === CLOSE_AUTH) {
    authRefused = true;
    setStatus('refused', ev.reason || 'the server refused the API key');
    return;
  }
  scheduleReconnect(ev.reason || 'connection closed (' + ev.code + ')');
}

function scheduleReconnect(why) {
  if (retryTimer) return;
  const delay = Math.round(backoff * (0.5 + Math.random() / 2));
  backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
  setStatus('disconnected', why + '; retrying in ' + Math.round(delay / 1000) + ' s');
  retryTimer = setTimeout(() => { retryTimer = null; connect(); }, delay);
}

// reconnect drops the socket and connects afresh (new settings).
function reconnect() {
  authRefused = false;
  backoff = BACKOFF_MIN_MS;
  const old = ws;
  ws = null;
  if (pingTimer) { clearInterval(pingTimer); pingTimer = null; }
  if (old) { releaseAll(); try { old.close(1000, 'settings changed'); } catch (e) {} }
  connect();
}

function onMessage(data) {
  let msg;
  try { msg = JSON.parse(data); } catch (e) { return; }
  switch (msg.type) {
    case 'welcome':
      welcomed = true;
      backoff = BACKOFF_MIN_MS;
      setStatus('connected', 'account ' + (msg.account || ''));
      if (!pingTimer) pingTimer = setInterval(() => send({type: 'ping'}), PING_MS);
      break;
    case 'error':
      setStatus('error', msg.message || msg.code || 'refused');
      break;
    case 'ping':
      send({type: 'pong'});
      break;
    case 'open':
      if (welcomed) openRun(msg);
      break;
    case 'cdp':
      if (welcomed) relay(msg);
      break;
    case 'close':
      releaseTab(msg.tab, !!msg.close).then(() => send({type: 'closed', tab: msg.tab}));
      break;
  }
}

function errorText(e) {
  return String((e && e.message) || e || 'unknown error');
}

// openRun opens the run's blank tab and attaches chrome.debugger; the run's own nodes navigate it
// (a trigger's start URL is the run's first "open tab" node).
async function openRun(msg) {
  const background = !!msg.background;
  let tab;
  let windowId = null;
  try {
    if (background) {
      // A background run gets its own unfocused window: the user's window and tab keep the focus,
      // and the run's tab is still the visible tab of its window. (A tab with active:false is
      // hidden, and a hidden tab paints no frames: every click, which waits for a repaint, would
      // hang there.)
      const w = await chrome.windows.create({url: 'about:blank', focused: false});
      tab = w.tabs[0];
      windowId = w.id;
    } else {
      try {
        tab = await chrome.tabs.create({url: 'about:blank', active: true});
      } catch (e) {
        // No window to put the tab in (a browser started without one): open a window.
        const w = await chrome.windows.create({url: 'about:blank', focused: true});
        tab = w.tabs[0];
        windowId = w.id;
      }
    }
    runTabs.set(tab.id, {run: msg.run, close: background, windowId});
    await chrome.debugger.attach({tabId: tab.id}, PROTOCOL_VERSION);
    const info = (await chrome.debugger.getTargets()).find((t) => t.tabId === tab.id);
    send({type: 'opened', run: msg.run, tab: tab.id, target: info ? info.id : ''});
  } catch (e) {
    if (tab) await releaseTab(tab.id, true);
    send({type: 'open_failed', run: msg.run, message: errorText(e)});
  }
}

// cdpError turns a chrome.debugger failure into a DevTools protocol error: Chrome reports the
// protocol's own {code, message} as JSON in the error text.
function cdpError(e) {
  const text = errorText(e);
  try {
    const v = JSON.parse(text);
    if (v && typeof v.message === 'string') return {code: Number(v.code) || -32000, message: v.message, data: v.data};
  } catch (_) {}
  return {code: -32000, message: text};
}

// targetCommand answers the few Target.* commands rod sends for a page, which chrome.debugger
// does not allow, with the extension APIs.
async function targetCommand(tabId, method) {
  switch (method) {
    case 'Target.getTargetInfo': {
      const t = (await chrome.debugger.getTargets()).find((x) => x.tabId === tabId);
      if (!t) throw new Error(JSON.stringify({code: -32000, message: 'No target with given id found'}));
      return {targetInfo: {targetId: t.id, type: t.type, title: t.title, url: t.url, attached: t.attached, canAccessOpener: false}};
    }
    case 'Target.activateTarget':
      await chrome.tabs.update(tabId, {active: true});
      return {};
    case 'Target.closeTarget':
      await releaseTab(tabId, true);
      return {success: true};
  }
  throw new Error(JSON.stringify({code: -32601, message: method + ' is not available through the companion extension'}));
}

async function relay(msg) {
  if (!runTabs.has(msg.tab)) {
    send({type: 'result', id: msg.id, error: {code: -32000, message: 'tab ' + msg.tab + ' is not a run tab of this extension'}});
    return;
  }
  try {
    const result = msg.method.startsWith('Target.')
      ? await targetCommand(msg.tab, msg.method, msg.params || {})
      : await chrome.debugger.sendCommand({tabId: msg.tab}, msg.method, msg.params || {});
    send({type: 'result', id: msg.id, result: result || {}});
  } catch (e) {
    send({type: 'result', id: msg.id, error: cdpError(e)});
  }
}

async function releaseTab(tabId, close) {
  const entry = runTabs.get(tabId);
  if (!entry) return;
  runTabs.delete(tabId);
  try { await chrome.debugger.detach({tabId}); } catch (e) {}
  if (!close) return;
  try {
    if (entry.windowId !== null) await chrome.windows.remove(entry.windowId);
    else await chrome.tabs.remove(tabId);
  } catch (e) {}
}

// releaseAll ends every run tab when the connection is gone: the server has failed those runs.
function releaseAll() {
  for (const [tabId, entry] of [...runTabs]) releaseTab(tabId, entry.close);
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  // Child sessions (out-of-process iframes) are not relayed: the server attaches to none.
  if (source.sessionId || !runTabs.has(source.tabId)) return;
  send({type: 'event', tab: source.tabId, method, params: params || {}});
});

chrome.debugger.onDetach.addListener((source, reason) => {
  if (!runTabs.has(source.tabId)) return;
  runTabs.delete(source.tabId);
  send({type: 'detached', tab: source.tabId, reason});
});

// The options page asks for a retry when it saves unchanged settings.
chrome.runtime.onMessage.addListener((msg, sender) => {
  if (msg && msg.type === 'reconnect' && sender.id === chrome.runtime.id) reconnect();
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && ('server' in changes || 'key' in changes)) reconnect();
});

// Alarms wake a worker that Chrome stopped while it was not connected, so it reconnects.
chrome.alarms.create('rodeo-reconnect', {periodInMinutes: 0.5});
chrome.alarms.onAlarm.addListener((a) => { if (a.name === 'rodeo-reconnect' && !ws && !retryTimer) connect(); });
chrome.runtime.onStartup.addListener(() => connect());
chrome.runtime.onInstalled.addListener(() => connect());
chrome.action.onClicked.addListener(() => chrome.runtime.openOptionsPage());

connect();
