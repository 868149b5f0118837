// SPDX-License-Identifier: MIT
// Chat panel: the user's messages, the assistant's streamed text (text_delta per request),
// tool calls inline with their outputs (item_done: function_call / function_call_output), and
// short notes for context appended, AGENTS.md reloads, warnings, errors and compactions.
import { EXAMPLES } from './demo.js';
import { $, el } from './util.js';

let app;
let log;
const bubbles = new Map(); // request_id -> assistant bubble text node
const calls = new Map(); // call_id -> <details> of the call
let contextNote = null; // the "context appended" note of the current step
let thinking = new Map(); // request_id -> reasoning note

function scroll() {
  log.scrollTop = log.scrollHeight;
}

function add(node) {
  log.append(node);
  scroll();
  return node;
}

export function note(text, kind = 'info') {
  return add(el('li', { class: `note ${kind}` }, text));
}

export function init(appState) {
  app = appState;
  log = $('chat');
  const input = $('composer-input');
  const send = () => {
    const text = input.value.trim();
    if (text === '' || app.busy) return;
    input.value = '';
    add(el('li', { class: 'msg user' }, el('span', { class: 'who' }, 'you'), el('p', {}, text)));
    app.runTurn({ input: text });
  };
  $('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    send();
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      send();
    }
  });
  const examples = $('examples');
  for (const text of EXAMPLES) examples.append(el('option', { value: text }, text));
  examples.addEventListener('change', () => {
    if (examples.value !== '') input.value = examples.value;
    examples.value = '';
    input.focus();
  });
  $('stop').addEventListener('click', () => app.abort?.abort());
  app.on('busy', (busy) => {
    $('send').disabled = busy;
    $('compact').disabled = busy;
    $('stop').disabled = !busy;
    log.setAttribute('aria-busy', busy ? 'true' : 'false');
  });
  app.on('reset', () => {
    log.replaceChildren(el('li', { class: 'note intro' },
      'The offline mock model reads the files you name (“Please read src/main.rs”), lists with #mock-list:<dir>, ',
      'writes with #mock-write:<path>=<text>, edits with #mock-edit:<path>=<old>=><new>, patches with #mock-patch: ',
      '(the patch on the next lines), searches with #mock-grep:<regex> and #mock-glob:<pattern>, calls any tool with ',
      '#mock-call:<tool>=<JSON>, and fails on request with #mock-fail-once:rate_limit_exceeded ',
      '(retried after a backoff). AGENTS.md lines like “reply prefix: X” shape its answers.'));
    bubbles.clear();
    calls.clear();
    thinking = new Map();
    contextNote = null;
  });
}

function bubble(requestId) {
  let text = bubbles.get(requestId);
  if (text === undefined) {
    text = el('p', { class: 'text' });
    const summary = app.requests.find((r) => r.id === requestId)?.purpose === 'compact';
    add(el('li', { class: `msg assistant${summary ? ' summary' : ''}`, dataset: { request: requestId } },
      el('span', { class: 'who' }, summary ? 'compaction summary (replaces the history)' : 'assistant'), text));
    bubbles.set(requestId, text);
  }
  return text;
}

function outputText(output) {
  if (typeof output === 'string') return output;
  return output.map((p) => (p.type === 'input_text' ? p.text : `[${p.type}]`)).join('\n');
}

function itemDone(item, origin) {
  if (origin !== 'user' && origin !== 'model' && origin !== 'tool') {
    // A context message (world-state section) appended before the request.
    if (contextNote === null) {
      contextNote = note('context appended: ', 'context');
      contextNote.dataset.origins = '';
    }
    const origins = contextNote.dataset.origins === '' ? [] : contextNote.dataset.origins.split(',');
    origins.push(origin);
    contextNote.dataset.origins = origins.join(',');
    contextNote.textContent = `context appended: ${origins.join(', ')}`;
    return;
  }
  contextNote = null;
  if (item.type === 'function_call' || item.type === 'custom_tool_call') {
    const args = item.type === 'function_call' ? item.arguments : item.input;
    const details = el('details', { class: 'tool-call', dataset: { call: item.call_id, name: item.name } },
      el('summary', {}, el('span', { class: 'tool-icon', 'aria-hidden': 'true' }, '⚙'), ' ',
        el('code', {}, item.name), ' ', el('code', { class: 'args' }, args)),
      el('pre', { class: 'tool-output' }, '(running…)'));
    calls.set(item.call_id, details);
    add(el('li', { class: 'tool' }, details));
  } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
    const details = calls.get(item.call_id);
    const text = outputText(item.output);
    if (details !== undefined) {
      details.querySelector('.tool-output').textContent = text;
      details.classList.add('done');
    } else {
      add(el('li', { class: 'tool' }, el('pre', { class: 'tool-output' }, text)));
    }
  } else if (item.type === 'message' && item.role === 'assistant') {
    const requestId = app.requests.at(-1)?.id ?? 'unknown';
    const text = item.content.filter((p) => p.type === 'output_text').map((p) => p.text).join('');
    bubble(requestId).textContent = text; // the committed text (deltas were a preview)
  } else if (item.type === 'reasoning') {
    const summary = (item.summary ?? []).map((s) => s.text).join('\n');
    if (summary !== '') {
      const requestId = app.requests.at(-1)?.id ?? 'unknown';
      const node = thinking.get(requestId);
      if (node) node.textContent = summary;
      else note(summary, 'thinking');
    }
  }
}

/** Routes one engine event into the chat. */
export function onEvent(event) {
  switch (event.type) {
    case 'turn_started':
      contextNote = null;
      break;
    case 'text_delta':
      bubble(event.request_id).textContent += event.delta;
      scroll();
      break;
    case 'reasoning_delta': {
      let node = thinking.get(event.request_id);
      if (node === undefined) {
        node = note('', 'thinking');
        thinking.set(event.request_id, node);
      }
      node.textContent += event.delta;
      break;
    }
    case 'item_done':
      itemDone(event.item, event.origin);
      break;
    case 'instructions_loaded':
      if (app.requests.length > 0) {
        note(`AGENTS.md reloaded (generation ${event.generation}): ${event.sources.join(', ') || 'no sources'}`, 'agents');
      }
      break;
    case 'warning':
      note(`warning ${event.code}: ${event.message}`, 'warning');
      break;
    case 'cache_cold':
      note(`warning cache_cold: idle ${Math.floor(event.idle_ms / 60000)} min past the ${Math.floor(event.cache_ttl_ms / 60000)} min cache TTL; ` +
        `the next request (~${event.prompt_tokens} tokens) costs ~$${event.cost_usd} cold, $${event.warm_cost_usd} warm` +
        `${event.prewarm ? '; prewarming first' : ''}`, 'warning');
      break;
    case 'compaction':
      note(event.phase === 'started'
        ? `compaction started (${event.trigger}, ${event.strategy})`
        : `compaction completed: ${event.tokens_before} → ${event.tokens_after} tokens`, 'compaction');
      break;
    default:
      break;
  }
}

export function errorEffect(effect) {
  const retry = effect.retryable ? ` — retrying${effect.retry_after_ms ? ` after ≥ ${effect.retry_after_ms} ms` : ''}` : '';
  note(`error ${effect.code}: ${effect.message}${retry}`, 'error');
}

export function turnDone(result) {
  contextNote = null;
  note(`${result.turn_id} ${result.reason} · ${result.requests} request${result.requests === 1 ? '' : 's'}`, `turn ${result.reason}`);
}

export function failure(error) {
  note(`${error.code ?? 'error'}: ${error.message}`, 'error');
}
