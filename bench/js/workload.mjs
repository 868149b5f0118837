// SPDX-License-Identifier: MIT
// The tool-loop workload of the JS benchmarks, byte for byte the twin of
// bench/native/tool_loop.cc (change both or neither): config, submit text, per-step SSE, 1 KB
// tool outputs, clocks and the timed window. Also the transports every variant runs on:
//  - openEmbindSession(): the npm package (Embind in Node) on a memory FileSystem;
//  - openWasiSession(): the WASI guest (wasm/dist/wasi/guest.js) with a temp dir as /workspace;
// both answer the same `call(method, input)` surface (createCaller), so one loop drives both.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distUrl } from './dist.mjs';

export const CONFIG = {
  session_id: 'bench-1',
  model: { slug: 'mock-1', instructions: 'You are a coding agent. Call fetch_data until the task is done.' },
  builtin_tools: false,
  tools: [{ name: 'fetch_data', description: 'Fetches the next page of data.', parameters: { type: 'object', properties: {} } }],
  max_steps_per_turn: 100000,
  environments: [{ id: 'local', cwd: '/workspace', fs: 'workspace' }],
};
export const SUBMIT_TEXT = 'Run the data loop.';
export const WORKSPACE_FILES = { '/workspace/README.md': '# bench\n' };
const FILLER = 'the quick brown fox jumps over the lazy dog; ';
const encoder = new TextEncoder();

/** now_ms of step k (submit is at stepNow(0)). */
export const stepNow = (k) => 1000 + k * 1000;

/** Steps timed at `steps` of history: clamp(steps / 10, 20, 400). */
export const windowFor = (steps) => Math.min(400, Math.max(20, Math.floor(steps / 10)));

/** The text a tool returns at step k: exactly `bytes` bytes (ASCII) of 64-byte lines. */
export function toolOutput(k, bytes = 1024) {
  let out = '';
  for (let line = 0; out.length < bytes; ++line) {
    let text = `step ${k} line ${line}: `;
    for (let i = 0; text.length < 63; ++i) text += FILLER[i % FILLER.length];
    out += text + '\n';
  }
  return out.slice(0, bytes);
}

/** The canned SSE answer to req-<k>: one function_call fetch_data (call_<k>), then completed. */
export function stepSse(k) {
  const input = 300 * k;
  return 'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_' + k + '"}}\n\n' +
    'event: response.output_item.done\ndata: {"type":"response.output_item.done","output_index":0,' +
    `"item":{"type":"function_call","id":"fc_${k}","name":"fetch_data","arguments":"{\\"page\\":${k}}","call_id":"call_${k}"}}\n\n` +
    'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_' + k + '","usage":{"input_tokens":' +
    input + ',"input_tokens_details":{"cached_tokens":0},"output_tokens":20,"output_tokens_details":{"reasoning_tokens":0},' +
    `"total_tokens":${input + 20}}}}\n\n`;
}

/** What the "server" sends at step k, prepared outside the timed region. */
export function prepareStep(k, outputBytes = 1024) {
  return { k, sse: encoder.encode(stepSse(k)), output: toolOutput(k, outputBytes), now: stepNow(k) };
}

let packagePromise;
/** The agentctx package (wasm/dist/index.node.js), loaded once. */
export function loadPackage() {
  packagePromise ??= import(distUrl('index.node.js'));
  return packagePromise;
}

/** A session of the package (Embind in Node) on a memory FileSystem; `files` extra files. */
export async function openEmbindSession(files = {}) {
  const pkg = await loadPackage();
  const engine = await pkg.createEngine();
  const workspace = pkg.createMemoryFileSystem({ ...WORKSPACE_FILES, ...files });
  const session = engine.openSession({ workspace });
  return { session, engine, workspace, close: () => { session.close(); engine.dispose(); } };
}

/** A session of the WASI guest over a temp dir preopened as /workspace. */
export async function openWasiSession(files = {}) {
  const pkg = await loadPackage();
  const { WasiGuest } = await import(distUrl('wasi/guest.js'));
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-ws-'));
  const state = mkdtempSync(join(tmpdir(), 'agentctx-bench-state-'));
  for (const [path, text] of Object.entries({ ...WORKSPACE_FILES, ...files })) {
    writeFileSync(join(dir, path.slice('/workspace/'.length)), text);
  }
  const guest = await WasiGuest.load({ workspace: dir, state });
  const handle = guest.open();
  const session = pkg.createCaller(guest.transport(handle));
  const engine = pkg.createCaller(guest.transport(0));
  return {
    session, engine, guest, dir,
    close: () => {
      guest.close(handle);
      rmSync(dir, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    },
  };
}

/** Opens a session of `variant` ('embind' | 'wasi'). */
export function openSession(variant, files) {
  if (variant === 'embind') return openEmbindSession(files);
  if (variant === 'wasi') return openWasiSession(files);
  throw new Error(`unknown engine variant ${variant}`);
}

/** The one model_request among `effects` (throws when missing). */
export function modelRequest(effects, what) {
  const req = effects.find((e) => e.type === 'model_request');
  if (!req) throw new Error(`${what}: no model_request in ${JSON.stringify(effects).slice(0, 300)}`);
  return req;
}

/**
 * The tool loop on a session opened by openSession(): start() then step(prepared) per step.
 * step() returns the body (a Uint8Array, already copied out of the module: ready for fetch).
 */
export class EngineLoop {
  constructor(session, outputBytes = 1024) {
    this.session = session;
    this.outputBytes = outputBytes;
    this.steps = 0;
    this.body = null;
  }

  start(config = CONFIG, onPersist = undefined) {
    const keep = (r) => { if (onPersist) for (const e of r.effects) if (e.type === 'persist') onPersist(e.lines); return r; };
    keep(this.session.call('session.start', { config, now_ms: 0 }));
    const r = keep(this.session.call('submit', { text: SUBMIT_TEXT, now_ms: stepNow(0) }));
    this.body = modelRequest(r.effects, 'submit').body;
    this.requestId = 'req-1';
    return this;
  }

  step(p) {
    const s = this.session;
    const a = s.call('deliver', { delivery: { type: 'model_events', request_id: this.requestId, sse: p.sse }, now_ms: p.now });
    const call = a.effects.find((e) => e.type === 'tool_call');
    if (call?.call_id !== `call_${p.k}`) throw new Error(`step ${p.k}: no tool_call call_${p.k}`);
    s.call('deliver', { delivery: { type: 'model_events', request_id: this.requestId, end: true }, now_ms: p.now });
    const c = s.call('deliver', { delivery: { type: 'tool_output', call_id: call.call_id, output: p.output }, now_ms: p.now });
    const req = modelRequest(c.effects, `step ${p.k}`);
    this.requestId = req.id;
    this.body = req.body;
    this.steps = p.k;
    return req.body;
  }

  /** Untimed steps up to `n`, each with its persist lines handed to `onPersist`. */
  run(n, onPersist) {
    for (let k = this.steps + 1; k <= n; ++k) {
      const p = prepareStep(k, this.outputBytes);
      if (!onPersist) {
        this.step(p);
        continue;
      }
      this.stepPersist(p, onPersist);
    }
  }

  /** step(), collecting persist lines (for building rollouts). */
  stepPersist(p, onPersist) {
    const s = this.session;
    const keep = (r) => { for (const e of r.effects) if (e.type === 'persist') onPersist(e.lines); return r; };
    const a = keep(s.call('deliver', { delivery: { type: 'model_events', request_id: this.requestId, sse: p.sse }, now_ms: p.now }));
    const call = a.effects.find((e) => e.type === 'tool_call');
    keep(s.call('deliver', { delivery: { type: 'model_events', request_id: this.requestId, end: true }, now_ms: p.now }));
    const c = keep(s.call('deliver', { delivery: { type: 'tool_output', call_id: call.call_id, output: p.output }, now_ms: p.now }));
    const req = modelRequest(c.effects, `step ${p.k}`);
    this.requestId = req.id;
    this.body = req.body;
    this.steps = p.k;
  }
}
