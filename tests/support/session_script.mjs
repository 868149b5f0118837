// SPDX-License-Identifier: MIT
// The JavaScript runner of the session fixture corpus (tests/fixtures/sessions/README.md), shared
// by wasm/test/session_fixtures.test.mjs (Embind package) and
// wasi-host/test/session_fixtures.test.mjs (WASI guest). It is the same host loop as
// tests/support/session_script.cc; keep the two in step. The caller provides the transport:
//   host.session(method, json) -> envelope text   (the session's handle)
//   host.attachment(i)         -> Uint8Array      (output attachment i of the last session call)
//   host.engine(method, json, inputs) -> envelope (handle 0: mock.respond, …; inputs: attachments)
//   host.write(path, text), host.remove(path)     (workspace edits between calls)
// Request bodies arrive as attachment references {"$bytes":i,"length":n} (docs/boundary.md): the
// runner reads them with host.attachment(i) right after the call and hands them to the mock as
// an input attachment, as a real host does.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SESSIONS_DIR = fileURLToPath(new URL('../fixtures/sessions/', import.meta.url));
const OK_VALUE = '{"v":1,"ok":true,"value":';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Case names (directories of the corpus), sorted by name bytes. */
export function listCases() {
  return readdirSync(SESSIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory()).map((d) => d.name).sort();
}

/** The parsed script.json of a case. */
export function readScript(name) {
  return JSON.parse(readFileSync(`${SESSIONS_DIR}${name}/script.json`, 'utf8'));
}

/** The expected file's bytes. */
export function readExpected(name, file) {
  return readFileSync(`${SESSIONS_DIR}${name}/expected/${file}`);
}

/** Replays `script`; returns {requests, effects, rollout, summary} as strings. */
export function runSessionScript(script, host) {
  let now = script.now_ms ?? 0;
  let requests = '';
  let effects = '';
  let rollout = '';
  let responses = 0;
  let inputTokens = 0;
  let cachedTokens = 0;

  const findOverride = (id, attempt) =>
    (script.models ?? []).find((m) => m.request === id && (m.attempt ?? 1) === attempt);

  const deliver = (delivery, queue) => {
    queue.push(['deliver', JSON.stringify({ delivery, now_ms: now })]);
  };

  const respond = (effect, queue) => {
    const { id, endpoint } = effect;
    const ref = effect.body;
    if (typeof ref !== 'object' || ref === null || !Number.isInteger(ref.$bytes)) {
      throw new Error(`model_request ${id}: body is not an attachment reference: ${JSON.stringify(ref)}`);
    }
    const bytes = host.attachment(ref.$bytes);
    if (bytes.length !== ref.length) throw new Error(`model_request ${id}: attachment length ${bytes.length} != ${ref.length}`);
    requests += decoder.decode(bytes) + '\n';
    const override = findOverride(id, effect.attempt ?? 1);
    if (override?.hold === true) return; // the request stays in flight
    const end = { type: 'model_events', request_id: id, end: true };
    if (override?.events !== undefined) {
      deliver({ type: 'model_events', request_id: id, events: override.events }, queue);
      deliver(end, queue);
      return;
    }
    if (override?.error !== undefined) {
      deliver({ type: 'model_error', request_id: id, ...override.error }, queue);
      return;
    }
    const reply = JSON.parse(host.engine('mock.respond',
      JSON.stringify({ endpoint, body: { $bytes: 0 }, now_ms: now }), [bytes]));
    if (!reply.ok) throw new Error(`mock.respond failed for ${id}: ${JSON.stringify(reply)}`);
    let text = reply.value.body;
    if (endpoint === 'responses/compact') {
      deliver({ type: 'model_response', request_id: id, body: text }, queue);
      return;
    }
    if (override?.cut_after_bytes !== undefined) {
      const bytes = encoder.encode(text);
      const n = override.cut_after_bytes;
      if (n < 0 || n > bytes.length || (n < bytes.length && (bytes[n] & 0xc0) === 0x80)) {
        throw new Error(`cut_after_bytes ${n} is not a character boundary`);
      }
      text = decoder.decode(bytes.subarray(0, n));
    }
    if (text.length > 0) deliver({ type: 'model_events', request_id: id, sse: text }, queue);
    deliver(end, queue);
  };

  const handle = (envelope, queue) => {
    const parsed = JSON.parse(envelope);
    if (!parsed.ok) return;
    const list = parsed.value?.effects;
    if (!Array.isArray(list)) return;
    const outputs = [];
    for (const effect of list) {
      if (effect.type === 'persist') {
        for (const line of effect.lines) rollout += line + '\n';
      } else if (effect.type === 'event') {
        if (effect.event?.type === 'token_usage') {
          responses += 1;
          inputTokens += effect.event.input_tokens ?? 0;
          cachedTokens += effect.event.cached_tokens ?? 0;
        }
      } else if (effect.type === 'model_request') {
        respond(effect, queue);
      } else if (effect.type === 'tool_call') {
        const answers = script.tool_outputs ?? {};
        const output = Object.hasOwn(answers, effect.call_id) ? answers[effect.call_id]
          : Object.hasOwn(answers, effect.name) ? answers[effect.name] : undefined;
        if (output === undefined) continue; // left pending (e.g. to interrupt the turn)
        outputs.push({ type: 'tool_output', call_id: effect.call_id, output });
      }
    }
    if (script.options?.host_output_order === 'reverse') outputs.reverse();
    for (const d of outputs) deliver(d, queue);
  };

  const drain = (method, input) => {
    const queue = [[method, input]];
    while (queue.length > 0) {
      const [m, json] = queue.shift();
      const envelope = host.session(m, json);
      effects += `{"method":${JSON.stringify(m)},"envelope":${envelope}}\n`;
      handle(envelope, queue);
    }
  };

  const queryValue = (method) => {
    const envelope = host.session(method, '{}');
    if (!envelope.startsWith(OK_VALUE) || !envelope.endsWith('}')) {
      throw new Error(`${method} failed: ${envelope}`);
    }
    return envelope.slice(OK_VALUE.length, -1);
  };

  drain('session.start', JSON.stringify({ config: script.config, now_ms: now }));
  script.steps.forEach((step, index) => {
    if (step.now_ms !== undefined) now = step.now_ms;
    const input = {};
    switch (step.op) {
      case 'write':
      case 'remove':
        if (typeof step.path !== 'string' || !step.path.startsWith('/workspace/')) {
          throw new Error(`steps[${index}]: path must be under /workspace/`);
        }
        if (step.op === 'write') host.write(step.path, step.text ?? '');
        else host.remove(step.path);
        return;
      case 'submit':
        for (const key of ['text', 'images', 'turn_id']) if (key in step) input[key] = step[key];
        break;
      case 'update':
        input.delta = step.delta ?? {};
        break;
      case 'retry':
        if ('request_id' in step) input.request_id = step.request_id;
        break;
      case 'compact':
        if ('turn_id' in step) input.turn_id = step.turn_id;
        break;
      case 'call':
        drain(step.method, step.input === undefined ? '{}' : JSON.stringify(step.input));
        return;
      case 'tick':
      case 'interrupt':
        break;
      default:
        throw new Error(`steps[${index}]: unknown op ${step.op}`);
    }
    input.now_ms = now;
    drain(step.op, JSON.stringify(input));
  });

  const share = inputTokens === 0 ? 0 : Math.floor((cachedTokens * 10000) / inputTokens);
  const summary = `{"responses":${responses},"input_tokens":${inputTokens},"cached_tokens":${cachedTokens}` +
    `,"cached_share_bp":${share},"cache_summary":${queryValue('cache_summary')},"stats":${queryValue('stats')}}\n`;
  return { requests, effects, rollout, summary };
}

/** Compares each output with expected/<file> byte for byte; returns a list of mismatch texts. */
export function compareWithExpected(name, result) {
  const problems = [];
  const files = {
    'requests.jsonl': result.requests, 'effects.jsonl': result.effects,
    'rollout.jsonl': result.rollout, 'summary.json': result.summary,
  };
  for (const [file, text] of Object.entries(files)) {
    const expected = readExpected(name, file);
    const actual = Buffer.from(text, 'utf8');
    if (expected.equals(actual)) continue;
    let i = 0;
    while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
    const from = Math.max(0, i - 80);
    problems.push(`${name}/expected/${file}: first difference at byte ${i}\n` +
      `  expected: …${expected.subarray(from, i + 120).toString()}\n` +
      `  actual:   …${actual.subarray(from, i + 120).toString()}`);
  }
  return problems;
}
