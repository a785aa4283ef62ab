// The options page edits chrome.storage.local {server, key}; the service worker reconnects on change.
'use strict';

const form = document.getElementById('settings');
const server = document.getElementById('server');
const key = document.getElementById('key');
const saved = document.getElementById('saved');
const status = document.getElementById('status');

function showStatus(s) {
  status.textContent = 'status: ' + (s ? s.state + (s.detail ? ' — ' + s.detail : '') : 'unknown');
}

let current = {server: '', key: ''};
chrome.storage.local.get(['server', 'key']).then((s) => {
  current = {server: s.server || '', key: s.key || ''};
  server.value = current.server;
  key.value = current.key;
  form.dataset.loaded = 'true';
});
chrome.storage.session.get('status').then((s) => showStatus(s.status));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'session' && changes.status) showStatus(changes.status.newValue);
});

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  let url;
  try {
    url = new URL(server.value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('use http:// or https://');
  } catch (e) {
    saved.textContent = 'invalid server URL: ' + e.message;
    return;
  }
  const next = {server: url.href.replace(/\/$/, ''), key: key.value.trim()};
  await chrome.storage.local.set(next);
  // Unchanged settings fire no storage change: ask the worker to retry the connection anyway.
  if (next.server === current.server && next.key === current.key) chrome.runtime.sendMessage({type: 'reconnect'}).catch(() => {});
  current = next;
  saved.textContent = 'saved';
});
