// SPDX-License-Identifier: MIT
// World-state timeline: the `world_state` rollout lines of the session — the
// first full snapshot, then one RFC 7386 patch per step where something changed — each under
// the turn it belongs to; plus the current baseline (`world_state` query).
import { $, el, pretty } from './util.js';

let app;
let turn = '(session start)';

function add(line) {
  const view = $('view-world');
  const atEnd = view.scrollTop + view.clientHeight >= view.scrollHeight - 8;
  const full = line.payload.full === true;
  const keys = Object.keys(line.payload.state ?? {});
  $('world-timeline').append(el('li', { class: full ? 'full' : 'patch', dataset: { turn } },
    el('div', { class: 'when' },
      el('strong', {}, full ? 'full snapshot' : 'patch'), ` · ${turn} · `,
      el('time', { datetime: line.timestamp }, line.timestamp.slice(11, 23)),
      ` · sections: ${keys.join(', ') || '—'}`),
    el('pre', { class: 'json' }, pretty(line.payload.state))));
  if (atEnd) view.scrollTop = view.scrollHeight; // follow the newest entry
}

function onLines(lines) {
  for (const text of lines) {
    let line;
    try { line = JSON.parse(text); } catch { continue; }
    if (line.type === 'event_msg' && line.payload?.type === 'task_started') turn = line.payload.turn_id;
    else if (line.type === 'world_state') add(line);
  }
}

function renderBaseline() {
  try {
    $('world-baseline').textContent = pretty(app.session.call('world_state'));
  } catch {
    $('world-baseline').textContent = '';
  }
}

export function init(appState) {
  app = appState;
  app.on('rollout', onLines);
  // Opening the view shows the newest entry.
  $('tab-world').addEventListener('click', () => requestAnimationFrame(() => {
    const view = $('view-world');
    view.scrollTop = view.scrollHeight;
  }));
  app.on('turn', renderBaseline);
  app.on('reset', () => {
    turn = '(session start)';
    $('world-timeline').replaceChildren();
    $('world-baseline').textContent = '';
  });
}
