// SPDX-License-Identifier: MIT
// The 200-request scripted session of P1/P2 (docs/BENCHMARKS.md) and its two drivers:
// agentctx (the package, Embind in Node) and the naive harness, fed the same canned model
// answers and tool outputs. The script: 10 turns of tool steps (1 KB outputs) with a cd, an
// approval change, an AGENTS.md edit mid-turn in `probe` mode, a tool-list change under `apply`,
// a switch to `defer` plus a tool added under it, and one manual compaction. Each driver hands
// every request to `onRequest({ n, purpose, body, now, cacheReport? })` (body = bytes).
import { CONFIG, modelRequest, openEmbindSession, stepSse, toolOutput } from './workload.mjs';
import { workloadHarness } from './naive_harness.mjs';

const FETCH = CONFIG.tools[0];
const SEARCH = { name: 'search_code', description: 'Searches the code base.', parameters: { type: 'object', properties: { query: { type: 'string' } } } };
const TESTS = { name: 'run_tests', description: 'Runs the test suite.', parameters: { type: 'object', properties: {} } };
const REPO = '/workspace/repo';

export const SCENARIO = {
  config: {
    ...CONFIG,
    session_id: 'bench-p1',
    agents_md: { refresh: 'probe' },
    tool_policy: 'apply',
    environments: [{ id: 'local', cwd: REPO, fs: 'workspace' }],
  },
  files: {
    [`${REPO}/.git/HEAD`]: 'ref: refs/heads/main\n',
    [`${REPO}/AGENTS.md`]: 'Keep answers short.\nRun the tests before you finish.\n',
    [`${REPO}/sub/AGENTS.md`]: 'This sub-project indents with tabs.\n',
    [`${REPO}/sub/main.c`]: 'int main(void) { return 0; }\n',
  },
  // `before`: ops while idle, before the turn's submit; `mid`: ops before request
  // midRequest(steps) of the turn is built (mid-turn). A turn of `steps` requests = steps − 1
  // tool steps + a reply.
  turns: [
    { steps: 20 },
    { steps: 20, before: [{ update: { cwd: `${REPO}/sub` } }], label: 'cd' },
    { steps: 20, before: [{ update: { approval_policy: 'never' } }], label: 'approval' },
    { steps: 20, mid: [{ write: [`${REPO}/sub/AGENTS.md`, 'This sub-project indents with tabs.\nPrefer small functions.\n'] }], label: 'AGENTS.md edit (probe)' },
    { steps: 20, before: [{ update: { tools: [FETCH, SEARCH] } }], label: 'tool added (apply)' },
    { steps: 20, before: [{ update: { tool_policy: 'defer' } }, { update: { tools: [FETCH, SEARCH, TESTS] } }], label: 'tool added (defer)' },
    { steps: 20 },
    { compact: true, label: 'compaction' },
    { steps: 20 },
    { steps: 20 },
    { steps: 19 },
  ],
};

export const SUMMARIZATION_PROMPT = 'You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume the task.';
const SUMMARY = 'Fetched 140 pages of data; the remaining pages follow the same format.';

function messageSse(n, text) {
  const item = { type: 'message', id: `msg_${n}`, role: 'assistant', content: [{ type: 'output_text', text }] };
  return 'event: response.created\ndata: ' + JSON.stringify({ type: 'response.created', response: { id: `resp_${n}` } }) + '\n\n' +
    'event: response.output_item.done\ndata: ' + JSON.stringify({ type: 'response.output_item.done', output_index: 0, item }) + '\n\n' +
    'event: response.completed\ndata: ' + JSON.stringify({ type: 'response.completed', response: { id: `resp_${n}`, usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1020 } } }) + '\n\n';
}

/** Canned Responses stream `sse` with `item` as its first output item; `only`: its only one. */
function withFirstItem(sse, item, only) {
  const events = sse.split('\n\n').filter((e) => e !== '');
  const kept = only ? events.filter((e) => !e.startsWith('event: response.output_item.done\n')) : events;
  const added = `event: response.output_item.done\ndata: ${JSON.stringify({ type: 'response.output_item.done', output_index: 0, item })}`;
  return [kept[0], added, ...kept.slice(1)].map((e) => `${e}\n\n`).join('');
}

/** The request of a turn before which its `mid` ops run. */
export const midRequest = (steps) => Math.floor(steps / 2) + 1;

/** SCENARIO with every turn's steps scaled (at least 3): the smoke runs a short version. */
export function scaledScenario(scale = 1) {
  if (scale === 1) return SCENARIO;
  return { ...SCENARIO, turns: SCENARIO.turns.map((t) => (t.compact ? t : { ...t, steps: Math.max(3, Math.round(t.steps * scale)) })) };
}

/** Requests in the script (200 at scale 1). */
export const requestCount = (s = SCENARIO) => s.turns.reduce((a, t) => a + (t.compact ? 1 : t.steps), 0);

/** The labelled events: request number (1-based) → label, for the report. */
export function eventRequests(s = SCENARIO) {
  const out = [];
  let n = 0;
  for (const t of s.turns) {
    if (t.label && !t.compact) out.push({ n: n + (t.mid ? midRequest(t.steps) : 1), label: t.label });
    if (t.compact) out.push({ n: n + 1, label: 'compaction request' }, { n: n + 2, label: 'first request after the compaction' });
    n += t.compact ? 1 : t.steps;
  }
  return out;
}

const encoder = new TextEncoder();

/**
 * agentctx through the package (Embind): every request's body, purpose and cache_report.
 * `options.config` is merged into the script's config (e.g. `{provider: 'chat'}`) and
 * `options.adaptSse` turns each canned Responses answer into that provider's stream;
 * `options.answerCompaction(request)` (optional) answers the compaction request instead of the
 * canned summary: `{sse}` for a streamed answer, `{body}` for `responses/compact`.
 * `options.providerCompaction(request)` (optional, strategy server) returns the `compaction`
 * item the provider put in its answer to a turn request, if any: it goes first in the canned
 * answer, or alone when `options.pauseAfterCompaction` (Anthropic), and then the engine's next
 * request gets the canned answer.
 */
export async function runAgentctx(onRequest, s = SCENARIO, options = {}) {
  const adapt = options.adaptSse ?? ((sse) => sse);
  const { session, workspace, close } = await openEmbindSession(s.files);
  let now = 0;
  let n = 0;
  const apply = (ops) => {
    for (const op of ops ?? []) {
      if (op.update) session.call('update', { delta: op.update, now_ms: now });
      if (op.write) workspace.write(op.write[0], encoder.encode(op.write[1]), true);
    }
  };
  const record = (r) => {
    const req = modelRequest(r.effects, `request ${n + 1}`);
    const report = r.effects.find((e) => e.type === 'event' && e.event.type === 'cache_report')?.event;
    onRequest({ n: ++n, purpose: req.purpose, body: req.body, now, cacheReport: report });
    return req;
  };
  const stream = (req, sse) => {
    const a = session.call('deliver', { delivery: { type: 'model_events', request_id: req.id, sse: encoder.encode(adapt(sse)) }, now_ms: now });
    const end = session.call('deliver', { delivery: { type: 'model_events', request_id: req.id, end: true }, now_ms: now });
    return { ...a, effects: [...a.effects, ...end.effects] };
  };
  const deliver = (req, sse) => {
    const compaction = options.providerCompaction?.(req);
    if (compaction === undefined) return stream(req, sse);
    const paused = options.pauseAfterCompaction === true;
    const answered = stream(req, withFirstItem(sse, compaction, paused));
    return paused ? deliver(record(answered), sse) : answered;
  };
  session.call('session.start', { config: { ...s.config, ...(options.config ?? {}) }, now_ms: now });
  for (const [t, turn] of s.turns.entries()) {
    now += 1000;
    apply(turn.before);
    if (turn.compact) {
      const req = record(session.call('compact', { now_ms: now }));
      const own = options.answerCompaction?.(req, now);
      if (own?.body !== undefined) {
        session.call('deliver', { delivery: { type: 'model_response', request_id: req.id, body: own.body }, now_ms: now });
      } else if (own?.sse !== undefined) {
        session.call('deliver', { delivery: { type: 'model_events', request_id: req.id, sse: encoder.encode(own.sse) }, now_ms: now });
        session.call('deliver', { delivery: { type: 'model_events', request_id: req.id, end: true }, now_ms: now });
      } else {
        deliver(req, messageSse(n, SUMMARY));
      }
      continue;
    }
    let req = record(session.call('submit', { text: `Turn ${t + 1}: fetch the next pages of data.`, now_ms: now }));
    for (let j = 1; j <= turn.steps; ++j) {
      if (j === turn.steps) {
        deliver(req, messageSse(n, `Turn ${t + 1} done.`));
        break;
      }
      const a = deliver(req, stepSse(n));
      const call = a.effects.find((e) => e.type === 'tool_call');
      if (!call) throw new Error(`request ${n}: no tool_call`);
      now += 1000;
      if (j + 1 === midRequest(turn.steps)) apply(turn.mid);
      req = record(session.call('deliver', { delivery: { type: 'tool_output', call_id: call.call_id, output: toolOutput(n) }, now_ms: now }));
    }
  }
  close();
  return n;
}

/** The naive harness through the same script. */
export function runNaive(onRequest, s = SCENARIO) {
  const files = { ...s.files };
  const readAgentsMd = (cwd) => {
    let text = '';
    for (let dir = REPO; ; dir = `${dir}/${cwd.slice(dir.length + 1).split('/')[0]}`) {
      if (files[`${dir}/AGENTS.md`]) text += files[`${dir}/AGENTS.md`];
      if (dir.length >= cwd.length) break;
    }
    return text;
  };
  const h = workloadHarness(s.config, readAgentsMd);
  let now = 0;
  let n = 0;
  const apply = (ops) => {
    for (const op of ops ?? []) {
      const u = op.update ?? {};
      if (u.cwd) h.cwd = u.cwd;
      if (u.approval_policy) h.approval = u.approval_policy;
      if (u.tools) h.tools = Object.fromEntries(u.tools.map((x) => [x.name, { description: x.description, parameters: x.parameters }]));
      if (op.write) files[op.write[0]] = op.write[1];
    }
  };
  const record = (body, purpose = 'turn') => onRequest({ n: ++n, purpose, body, now });
  for (const [t, turn] of s.turns.entries()) {
    now += 1000;
    apply(turn.before);
    if (turn.compact) {
      record(h.request([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: SUMMARIZATION_PROMPT }] }]), 'compact');
      h.receive(messageSse(n, SUMMARY), false);
      h.compactTo(SUMMARY);
      continue;
    }
    h.addUser(`Turn ${t + 1}: fetch the next pages of data.`);
    record(h.request());
    for (let j = 1; j <= turn.steps; ++j) {
      if (j === turn.steps) {
        h.receive(messageSse(n, `Turn ${t + 1} done.`));
        break;
      }
      const { items } = h.receive(stepSse(n));
      now += 1000;
      if (j + 1 === midRequest(turn.steps)) apply(turn.mid);
      h.addToolOutput(items[0].call_id, toolOutput(n));
      record(h.request());
    }
  }
  return n;
}
