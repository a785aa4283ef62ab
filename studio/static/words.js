// words.js: what the API's codes mean, in words (docs/API.md's tables).

export const errorWords = {
  target_not_found: 'No element on the page clearly matched the description.',
  ambiguous_target: 'Several elements matched equally well; say which with "match": "first", "last" or a number.',
  verification_failed: 'The action ran, but rodeo could not see that it had any effect.',
  navigation_failed: 'The page could not be loaded, or it answered with an HTTP error.',
  timeout: 'The step or the run hit its time limit.',
  canceled: 'The run was canceled.',
  browser_crashed: 'Chrome crashed under the run; the pool replaced it, so running again should work.',
  browser_unavailable: 'No browser could be started or reached.',
  variable_not_set: 'A {{name}} placeholder names a variable the run does not have.',
  invalid_config: 'A parameter’s value was unusable when the step ran.',
  interrupted: 'The server stopped while the run was going.',
  expired: 'No companion extension took the run in time.',
  internal: 'Something went wrong inside rodeo (a bug).',
  busy: 'Every browser is busy and the queue is full; try again in a moment.',
  not_found: 'Not found (or it belongs to another account).',
};

// errorInWords is a step's or run's {code, message} as a sentence plus the server's message.
export function errorInWords(err) {
  if (!err) return '';
  const words = errorWords[err.code];
  return words ? `${words} ${err.message ? `(${err.message})` : ''}`.trim() : `${err.code}: ${err.message}`;
}

export const runStatuses = ['queued', 'running', 'succeeded', 'failed', 'canceled', 'timed_out', 'expired'];
export const active = (status) => status === 'queued' || status === 'running';
