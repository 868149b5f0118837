// SPDX-License-Identifier: MIT
// The hostile-input catalogue: each case builds its input, runs the CLI on it under
// /usr/bin/time, and asserts the expected outcome (a clear warning or error, never a crash, a
// trap, a hang or a blow-up). `npm test` runs every case at its small size
// (wasi-host/test/hostile_inputs.test.mjs); `npm run stress` at its full size, with the
// bounds (10 s, 1 GB) asserted and a table of time and max RSS written.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, startServeMock } from '../../wasi-host/test/helpers.mjs';
import { hostileWithOneWordRequests, nestedPartsMessagesBody, nestedPartsResponsesBody } from './serve_mock_flight.mjs';

/** Runs the CLI under /usr/bin/time: {code, signal, stdout, stderr, ms, rssMb}. */
export function measure(args, { cwd, input = '', timeoutMs = 120000 } = {}) {
  return new Promise((resolve, reject) => {
    const timeFile = join(mkdtempSync(join(tmpdir(), 'actx-time-')), 't');
    const env = { ...process.env };
    delete env.AGENTCTX_HOME;
    delete env.OPENAI_API_KEY;
    const started = Date.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, CLI, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Date.now() - started;
      let timeText = '';
      try { timeText = readFileSync(timeFile, 'utf8'); } catch { /* killed */ }
      rmSync(join(timeFile, '..'), { recursive: true, force: true });
      // GNU time reports "Command terminated by signal N" for a signal; %M is the last line.
      const signal = /terminated by signal (\d+)/.exec(timeText)?.[1];
      const rssKb = Number(timeText.trim().split('\n').at(-1));
      const stdout = Buffer.concat(out).toString('utf8');
      resolve({ code, signal: signal ? Number(signal) : undefined, stdout, stderr: Buffer.concat(err).toString('utf8').slice(-20000), stdoutBytes: Buffer.byteLength(stdout), ms, rssMb: Number.isFinite(rssKb) ? rssKb / 1024 : NaN });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

// --- SSE for the scripted model server -----------------------------------------------------

function event(type, data) {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}
const USAGE = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };

/** A complete Responses stream with one assistant message `text`, in deltas of `deltaBytes`. */
export function messageStream(text, deltaBytes = 4096) {
  const item = { id: 'msg_h', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
  let s = event('response.created', { response: { id: 'resp_h', object: 'response', status: 'in_progress', output: [] } });
  s += event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
  for (let i = 0; i < text.length; i += deltaBytes) {
    s += event('response.output_text.delta', { item_id: 'msg_h', output_index: 0, content_index: 0, delta: text.slice(i, i + deltaBytes) });
  }
  s += event('response.output_item.done', { output_index: 0, item });
  s += event('response.completed', { response: { id: 'resp_h', object: 'response', status: 'completed', output: [item], usage: USAGE } });
  return s;
}

/** A server answering each POST with `respond(body)` -> {chunks: Buffer[]}; returns {url, close}. */
async function sseServer(respond) {
  const counts = { requests: 0 };
  const server = createServer(async (req, res) => {
    counts.requests += 1;
    for await (const _ of req) { /* drain */ }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const c of respond()) {
      if (!res.write(c)) await new Promise((r) => res.once('drain', r));
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, counts, close: () => { server.closeAllConnections(); server.close(); } };
}

// --- the cases --------------------------------------------------------------------------------

const MB = 1024 * 1024;
const rule = (bytes) => '- rule\n'.repeat(Math.ceil(bytes / 7));
const deepJson = (depth) => '['.repeat(depth) + ']'.repeat(depth);

function tree(root, spec) {
  for (const [rel, value] of Object.entries(spec)) {
    const p = join(root, rel);
    mkdirSync(join(p, '..'), { recursive: true });
    if (value && typeof value === 'object' && 'symlink' in value) symlinkSync(value.symlink, p);
    else writeFileSync(p, value);
  }
}

function rolloutLines(n) {
  const lines = [JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: '0190c0de-0000-7000-8000-00000000a017', cwd: '/workspace' } })];
  for (let i = 0; i < n; i++) {
    const ts = `2026-01-01T00:00:${String(1 + i).padStart(2, '0')}.000Z`;
    lines.push(JSON.stringify({ timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `q${i}` }] } }));
    lines.push(JSON.stringify({ timestamp: ts, type: 'response_item', payload: { type: 'function_call', id: `fc_${i}`, call_id: `c${i}`, name: 'read_file', arguments: '{"path":"a.txt"}' } }));
    lines.push(JSON.stringify({ timestamp: ts, type: 'response_item', payload: { type: 'function_call_output', call_id: `c${i}`, output: 'A' } }));
  }
  return lines;
}

const ok = (r) => r.code === 0 && r.signal === undefined;
const clearFailure = (r) => r.signal === undefined && (r.code === 1 || r.code === 2) && /agentctx: /.test(r.stderr) && !/guest_trap|RuntimeError|Segmentation|Aborted/.test(r.stderr);

/**
 * Each case: {name, small, stress, run(dir, size) -> {result, expect: [[label, boolean]]}}.
 * `size` is the case's small or stress value.
 */
export const CASES = [
  {
    name: 'huge global AGENTS.md', small: 3 * MB, stress: 50 * MB, unit: 'bytes',
    async run(dir, size) {
      tree(dir, { 'ws/a.txt': 'A\n', 'home/AGENTS.md': rule(size) });
      const r = await measure(['inspect', '--format', 'agents', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home')], { cwd: dir });
      return { r, expect: [['exit 0', ok(r)], ['global cut warned', r.stdout.includes('global AGENTS.md instructions truncated') || r.stderr.includes('global AGENTS.md instructions truncated')]] };
    },
  },
  {
    name: 'huge project AGENTS.md', small: 3 * MB, stress: 50 * MB, unit: 'bytes',
    async run(dir, size) {
      tree(dir, { 'ws/AGENTS.md': rule(size) });
      const r = await measure(['inspect', '--format', 'agents', '--trust', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home')], { cwd: dir });
      return { r, expect: [['exit 0', ok(r)], ['cut warned', (r.stdout + r.stderr).includes('agents_md_truncated') || (r.stdout + r.stderr).includes('AGENTS.md instructions truncated')]] };
    },
  },
  {
    name: 'deep tree (cwd at the bottom)', small: 300, stress: 2000, unit: 'levels',
    async run(dir, size) {
      const rel = Array.from({ length: size }, () => 'd').join('/');
      tree(dir, { [`ws/${rel}/AGENTS.md`]: 'deep rule\n', 'ws/AGENTS.md': 'root rule\n', 'ws/.git/HEAD': 'x' });
      const r = await measure(['inspect', '--format', 'agents', '--trust', '--workspace', join(dir, 'ws'), '--cwd', rel, '--home', join(dir, 'home')], { cwd: dir });
      return { r, expect: [['exit 0', ok(r)], ['deep doc read', r.stdout.includes('deep rule')]] };
    },
  },
  {
    name: 'huge directory listed', small: 3000, stress: 100000, unit: 'files',
    async run(dir, size) {
      mkdirSync(join(dir, 'ws/big'), { recursive: true });
      for (let i = 0; i < size; i++) writeFileSync(join(dir, 'ws/big', `f${i}.txt`), '');
      const r = await measure(['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), '#mock-list:big'], { cwd: dir });
      return { r, expect: [['exit 0', ok(r)]] };
    },
  },
  {
    name: 'symlink loops and links out', small: 1, stress: 1, unit: '',
    async run(dir) {
      tree(dir, { 'ws/a.txt': 'A\n', 'ws/loop': { symlink: 'loop' }, 'ws/x': { symlink: 'y' }, 'ws/y': { symlink: 'x' }, 'ws/out': { symlink: '/etc' }, 'ws/AGENTS.md': { symlink: 'AGENTS.md' } });
      const args = (p) => ['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), p];
      const rs = [];
      for (const p of ['Please read loop.', 'Please read x.', 'Please read out/passwd.', '#mock-list:.', '#mock-glob:**/*', '#mock-grep:root']) rs.push(await measure(args(p), { cwd: dir }));
      // A trusted workspace whose AGENTS.md is a loop: the sandboxed environment's load fails
      // (a stat error other than not_found fails the load), said clearly, every turn.
      const looped = await measure(['run', '--trust', ...args('hello').slice(1)], { cwd: dir });
      const all = [...rs, looped];
      const r = { ...rs[0], ms: all.reduce((a, b) => a + b.ms, 0), rssMb: Math.max(...all.map((x) => x.rssMb)) };
      return { r, expect: [['all exit 0', rs.every(ok)], ['nothing from /etc', all.every((x) => !x.stdout.includes('root:x:0'))], ['looped AGENTS.md: agents_md_load_failed', clearFailure(looped) && looped.stderr.includes('agents_md_load_failed')]] };
    },
  },
  {
    name: 'invalid UTF-8, NUL and a newline in names', small: 1, stress: 1, unit: '',
    async run(dir) {
      tree(dir, { 'ws/bad.txt': Buffer.from([0x61, 0xff, 0xfe, 0x00, 0x62, 0x0a, 0xc3]), 'ws/AGENTS.md': Buffer.from([0x72, 0xff, 0x00, 0x0a]), 'ws/new\nline.txt': 'n\n', [`ws/${Buffer.from([0x6e, 0xff]).toString('latin1')}.txt`]: 'l\n' });
      const args = (p) => ['run', '--trust', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), p];
      const rs = [];
      for (const p of ['Please read bad.txt.', '#mock-list:.', '#mock-glob:*', '#mock-grep:n']) rs.push(await measure(args(p), { cwd: dir }));
      const r = { ...rs[0], ms: rs.reduce((a, b) => a + b.ms, 0), rssMb: Math.max(...rs.map((x) => x.rssMb)) };
      return { r, expect: [['all exit 0', rs.every(ok)]] };
    },
  },
  {
    name: 'deeply nested JSON: --config', small: 10000, stress: 100000, unit: 'levels',
    async run(dir, size) {
      tree(dir, { 'ws/a.txt': 'A\n', 'deep.json': `{"model":${deepJson(size)}}` });
      const r = await measure(['inspect', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), '--config', join(dir, 'deep.json')], { cwd: dir });
      return { r, expect: [['usage error (exit 2)', r.code === 2 && r.signal === undefined]] };
    },
  },
  {
    name: 'deeply nested JSON: script and call input', small: 10000, stress: 100000, unit: 'levels',
    async run(dir, size) {
      tree(dir, { 'ws/a.txt': 'A\n', 'script.jsonl': `{"update":${deepJson(size)}}\n` });
      const rs = [
        await measure(['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), '--script', join(dir, 'script.jsonl')], { cwd: dir }),
        // An argument is at most 128 KiB (Linux MAX_ARG_STRLEN): 60 000 levels at most here.
        await measure(['call', 'engine.version', deepJson(Math.min(size, 60000)), '--workspace', join(dir, 'ws'), '--home', join(dir, 'home')], { cwd: dir }),
      ];
      const r = { ...rs[0], ms: rs[0].ms + rs[1].ms, rssMb: Math.max(rs[0].rssMb, rs[1].rssMb) };
      return { r, expect: [['script refused clearly', clearFailure(rs[0])], ['call answers or refuses, no crash', rs[1].signal === undefined && rs[1].code !== null && !/RuntimeError|guest_trap/.test(rs[1].stderr)]] };
    },
  },
  {
    name: 'deeply nested JSON: rollout line', small: 10000, stress: 100000, unit: 'levels',
    async run(dir, size) {
      const lines = rolloutLines(2);
      lines.splice(2, 0, deepJson(size));
      tree(dir, { 'ws/a.txt': 'A\n', 'r.jsonl': lines.join('\n') + '\n' });
      const r = await measure(['resume', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), join(dir, 'r.jsonl'), 'hello'], { cwd: dir });
      return { r, expect: [['rollout_corrupt, clearly', clearFailure(r) && r.stderr.includes('rollout line 3')]] };
    },
  },
  {
    name: 'huge SSE message', small: 2 * MB, stress: 100 * MB, unit: 'bytes',
    async run(dir, size) {
      tree(dir, { 'ws/a.txt': 'A\n' });
      const stream = Buffer.from(messageStream('x'.repeat(size), 64 * 1024));
      const server = await sseServer(() => [stream]);
      try {
        const r = await measure(['run', '--model', 'gpt-test', '--base-url', server.url, '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), 'hello'], { cwd: dir });
        // Over kMaxSseEventBytes (32 MiB) the item's done event and response.completed are
        // dropped with a warning, so the turn fails clearly (stream_error), nothing traps, and
        // the same request is not sent again (the failure is deterministic).
        const big = size > 32 * MB;
        return { r, expect: [['no crash or trap', r.signal === undefined && !/guest_trap|RuntimeError/.test(r.stderr)], big ? ['sse_event_too_large, then a clear stream_error, not retried', r.stderr.includes('sse_event_too_large') && clearFailure(r) && r.stderr.includes('stream_error') && !r.stderr.includes('(retryable)') && server.counts.requests === 1] : ['reply printed whole, exit 0', ok(r) && r.stdoutBytes >= size]] };
      } finally {
        server.close();
      }
    },
  },
  {
    name: 'SSE split anywhere (1-byte chunks, inside emoji)', small: 20000, stress: 1 * MB, unit: 'bytes',
    async run(dir, size) {
      tree(dir, { 'ws/a.txt': 'A\n' });
      const text = '😀é'.repeat(Math.ceil(size / 6));
      const bytes = Buffer.from(messageStream(text, 1000));
      const chunks = [];
      for (let i = 0; i < bytes.length; i += 1 + (i % 7)) chunks.push(bytes.subarray(i, i + 1 + (i % 7)));
      const server = await sseServer(() => chunks);
      try {
        const r = await measure(['run', '--model', 'gpt-test', '--base-url', server.url, '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), 'hello'], { cwd: dir });
        return { r, expect: [['exit 0, text intact', ok(r) && r.stdout.trimEnd() === text]] };
      } finally {
        server.close();
      }
    },
  },
  {
    name: 'garbage SSE', small: 100000, stress: 10 * MB, unit: 'bytes',
    async run(dir, size) {
      tree(dir, { 'ws/a.txt': 'A\n' });
      const junk = Buffer.alloc(size);
      let x = 17;
      for (let i = 0; i < size; i++) { x = (x * 1103515245 + 12345) >>> 0; junk[i] = x >>> 24; }
      const server = await sseServer(() => [junk, Buffer.from(messageStream('after junk'))]);
      try {
        const r = await measure(['run', '--max-retries', '0', '--model', 'gpt-test', '--base-url', server.url, '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), 'hello'], { cwd: dir });
        return { r, expect: [['ends cleanly (reply or clear error)', ok(r) || clearFailure(r)]] };
      } finally {
        server.close();
      }
    },
  },
  {
    name: 'huge submit', small: 1 * MB, stress: 20 * MB, unit: 'bytes',
    async run(dir, size) {
      tree(dir, { 'ws/a.txt': 'A\n' });
      const r = await measure(['run', '-i', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home')], { cwd: dir, input: 'y'.repeat(size) + '\nhello\n/exit\n' });
      const over = size > 16 * MB;
      return { r, expect: [['no crash', r.signal === undefined && !/RuntimeError|guest_trap/.test(r.stderr)], over ? ['refused as invalid_input', r.stderr.includes('invalid_input')] : ['answered', r.stdout.includes('Mock reply to: yyyy')], ['session usable after', r.stdout.includes('Mock reply to: hello')]] };
    },
  },
  {
    name: 'huge tool output (read_file)', small: 4 * MB, stress: 100 * MB, unit: 'bytes',
    async run(dir, size) {
      tree(dir, { 'ws/big.txt': 'z'.repeat(99) + '\n' });
      writeFileSync(join(dir, 'ws/big.txt'), ('z'.repeat(99) + '\n').repeat(Math.ceil(size / 100)));
      const r = await measure(['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), 'Please read big.txt.'], { cwd: dir });
      return { r, expect: [['exit 0', ok(r)]] };
    },
  },
  {
    name: 'rollout: garbage, empty, binary', small: 100000, stress: 10 * MB, unit: 'bytes',
    async run(dir, size) {
      const junk = Buffer.alloc(size);
      for (let i = 0; i < size; i++) junk[i] = (i * 131 + 7) & 0xff;
      tree(dir, { 'ws/a.txt': 'A\n', 'empty.jsonl': '', 'garbage.jsonl': 'not json at all\n{"half":\n', 'binary.jsonl': junk });
      const rs = [];
      for (const f of ['empty.jsonl', 'garbage.jsonl', 'binary.jsonl']) rs.push(await measure(['resume', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), join(dir, f), 'hello'], { cwd: dir }));
      const r = { ...rs[2], ms: rs.reduce((a, b) => a + b.ms, 0), rssMb: Math.max(...rs.map((x) => x.rssMb)) };
      return { r, expect: [['each refused clearly', rs.every(clearFailure)]] };
    },
  },
  {
    name: 'rollout: reordered and duplicated lines', small: 20, stress: 2000, unit: 'turns',
    async run(dir, size) {
      const lines = rolloutLines(size);
      const dup = [lines[0], ...lines.slice(1).flatMap((l) => [l, l])];
      const re = [...lines];
      [re[2], re[4]] = [re[4], re[2]]; // an output before its call
      tree(dir, { 'ws/a.txt': 'A\n', 'dup.jsonl': dup.join('\n') + '\n', 're.jsonl': re.join('\n') + '\n' });
      const d = await measure(['resume', '--workspace', join(dir, 'ws'), '--home', join(dir, 'h1'), '--dump-requests', join(dir, 'd1'), join(dir, 'dup.jsonl'), 'hello'], { cwd: dir });
      const o = await measure(['resume', '--workspace', join(dir, 'ws'), '--home', join(dir, 'h2'), join(dir, 're.jsonl'), 'hello'], { cwd: dir });
      let unique = false;
      try {
        const body = JSON.parse(readFileSync(join(dir, 'd1/0001.json'), 'utf8'));
        const ids = body.input.filter((i) => typeof i.call_id === 'string').map((i) => `${i.type} ${i.call_id}`);
        unique = ids.length === 2 * size && new Set(ids).size === ids.length;
      } catch { unique = false; }
      const r = { ...d, ms: d.ms + o.ms, rssMb: Math.max(d.rssMb, o.rssMb) };
      return { r, expect: [['both exit 0', ok(d) && ok(o)], ['duplicates warned', d.stderr.includes('rollout_duplicate_item')], ['no duplicate in the request', unique], ['reorder warned', o.stderr.includes('rollout_out_of_order')]] };
    },
  },
  {
    name: 'rollout: huge line', small: 2 * MB, stress: 200 * MB, unit: 'bytes',
    async run(dir, size) {
      const lines = rolloutLines(1);
      lines.splice(2, 0, JSON.stringify({ timestamp: '2026-01-01T00:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'h'.repeat(size) }] } }));
      tree(dir, { 'ws/a.txt': 'A\n', 'r.jsonl': lines.join('\n') + '\n' });
      const r = await measure(['resume', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), join(dir, 'r.jsonl'), 'hello'], { cwd: dir });
      const over = size > 64 * MB;
      return { r, expect: [['exit 0', ok(r)], over ? ['skipped with rollout_line_too_large', r.stderr.includes('rollout_line_too_large')] : ['read (no warning)', !r.stderr.includes('rollout_line_too_large')]] };
    },
  },
];

CASES.push({
  name: 'long mock session (memory)', small: 50, stress: 2000, unit: 'turns',
  // 2 000 real turns are work, not a hang: bounded at 60 ms a turn instead of 10 s (the memory
  // bound, 1 GB, is the point of this case).
  timeBoundMs: 120000,
  async run(dir, size) {
    // Once 2 000 turns reached 487 MB, mostly the mock's cache-simulator copies.
    tree(dir, { 'ws/a.txt': 'A\n', 'script.jsonl': Array.from({ length: size }, (_, i) => JSON.stringify({ submit: `turn ${i} hello` })).join('\n') + '\n' });
    const r = await measure(['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), '--script', join(dir, 'script.jsonl')], { cwd: dir, timeoutMs: 600000 });
    return { r, expect: [['exit 0', ok(r)], ['every turn answered', r.stdout.includes(`Mock reply to: turn ${size - 1} hello`)]] };
  },
});

/** A Responses stream with `count` small output items, then response.completed. */
function manyItemsStream(count) {
  const chunks = [];
  let s = event('response.created', { response: { id: 'resp_m', object: 'response', status: 'in_progress', output: [] } });
  for (let i = 0; i < count; i++) {
    const item = { id: `msg_${i}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'x'.repeat(1000), annotations: [] }] };
    s += event('response.output_item.done', { output_index: i, item });
    if (s.length > 256 * 1024) {
      chunks.push(Buffer.from(s));
      s = '';
    }
  }
  s += event('response.completed', { response: { id: 'resp_m', object: 'response', status: 'completed', output: [], usage: USAGE } });
  chunks.push(Buffer.from(s));
  return chunks;
}

/**
 * Starts `agentctx serve-mock`, POSTs `body` to `path`, reads the server's peak RSS (VmHWM) and
 * stops it: {r: measure()'s shape (ms is the request's time), status, text}.
 */
async function measureServeMock(path, body) {
  const env = { ...process.env };
  delete env.AGENTCTX_HOME;
  const child = spawn(process.execPath, [CLI, 'serve-mock', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const err = [];
  child.stderr.on('data', (d) => err.push(d));
  const closed = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('close', () => reject(new Error(`serve-mock exited: ${Buffer.concat(err).toString('utf8')}`)));
  });
  const started = Date.now();
  let status = 0;
  let text = '';
  try {
    const res = await fetch(url + path, { method: 'POST', body, signal: AbortSignal.timeout(120000) });
    status = res.status;
    text = await res.text();
  } catch (e) {
    text = String(e);
  }
  const ms = Date.now() - started;
  let rssKb = NaN;
  try {
    rssKb = Number(/VmHWM:\s*(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
  } catch { /* gone */ }
  child.kill('SIGTERM');
  const { signal } = await closed;
  const stderr = Buffer.concat(err).toString('utf8').slice(-20000);
  // Stopped by our SIGTERM: that is the expected end, not a crash.
  const r = { code: 0, signal: signal === 'SIGTERM' || signal === null ? undefined : signal, stdout: '', stderr, ms, rssMb: rssKb / 1024 };
  return { r, status, text };
}

CASES.push({
  name: 'huge streamed response (many output items)', small: 5000, stress: 240000, unit: 'items',
  async run(dir, size) {
    // Past kMaxResponseOutputItems (4 096) the attempt fails at once with a clear stream_error
    // that is not retried, and the rest of the stream is not read (it took the guest's 4 GB).
    tree(dir, { 'ws/a.txt': 'A\n' });
    const chunks = manyItemsStream(size);
    const server = await sseServer(() => chunks);
    try {
      const r = await measure(['run', '--model', 'gpt-test', '--base-url', server.url, '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), 'hello'], { cwd: dir });
      return { r, expect: [['no crash or trap', r.signal === undefined && !/guest_trap|RuntimeError|bad_alloc/.test(r.stderr)], ['a clear stream_error naming the limit, not retried', clearFailure(r) && r.stderr.includes('more than 4096 output items') && server.counts.requests === 1]] };
    } finally {
      server.close();
    }
  },
});

CASES.push({
  name: 'serve-mock: many call/output pairs', small: 2000, stress: 24000, unit: 'pairs',
  async run(dir, size) {
    // Each tool output finds its call through an index: linear (24 000 pairs took 26.5 s).
    const input = [{ role: 'user', content: 'read them all' }];
    for (let i = 0; i < size; i++) input.push({ type: 'function_call', name: 'read_file', call_id: `c${i}`, arguments: `{"path":"/f${i}"}` });
    for (let i = 0; i < size; i++) input.push({ type: 'function_call_output', call_id: `c${i}`, output: 'L1: x' });
    const { r, status, text } = await measureServeMock('/responses', JSON.stringify({ model: 'm', input }));
    let lines = 0;
    try {
      lines = JSON.parse(text).output.find((i) => i.type === 'message').content[0].text.split('\n').length;
    } catch { lines = 0; }
    return { r, expect: [['200, one line per output', status === 200 && lines === size]] };
  },
});

CASES.push({
  name: 'serve-mock: too many items', small: 70000, stress: 2200000, unit: 'messages',
  async run(dir, size) {
    // Over kMaxMockInputItems (65 536): 413 in the API's error shape, without the guest (2.2 M
    // tiny messages took 164 s and 2.3 GB that the guest never gave back).
    const body = JSON.stringify({ model: 'm', input: Array.from({ length: size }, () => ({ role: 'user', content: 'x' })) });
    const { r, status, text } = await measureServeMock('/responses', body);
    let code = '';
    try { code = JSON.parse(text).error.code; } catch { code = ''; }
    return { r, expect: [['413 too_many_items', status === 413 && code === 'too_many_items']] };
  },
});

CASES.push({
  name: 'serve-mock: nested parts in flight', small: 1000000, stress: 1500000, unit: 'parts',
  // Content parts nested in a tool output (Responses, then Anthropic): refused as the body
  // arrives, before it is all read; one-word requests sent back to back meanwhile are each
  // answered within the bound (they waited behind a parse of the whole body). `ms` is the
  // slowest one-word request. The small size stays well past what socket buffers hold, so
  // "before the whole body was read" is observable.
  timeBoundMs: 1000,
  async run(dir, size) {
    const { child, baseURL } = await startServeMock();
    try {
      let slowest = 0;
      const expect = [];
      for (const [path, body] of [['/responses', nestedPartsResponsesBody(size)], ['/messages', nestedPartsMessagesBody(size)]]) {
        const { hostile, oneWord, maxOneWordMs } = await hostileWithOneWordRequests(baseURL, path, body);
        slowest = Math.max(slowest, maxOneWordMs);
        expect.push([`${path}: 413 before the whole body was read (got ${hostile.status} after ${hostile.writtenAtResponse} of ${hostile.bodyBytes} bytes: ${hostile.text.slice(0, 80)})`,
          hostile.status === 413 && hostile.writtenAtResponse < hostile.bodyBytes]);
        expect.push([`${path}: every one-word request answered`, oneWord.every((r) => r.status === 200)]);
      }
      let rssKb = NaN;
      try {
        rssKb = Number(/VmHWM:\s*(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
      } catch { /* gone */ }
      return { r: { code: 0, signal: undefined, stdout: '', stderr: '', ms: slowest, rssMb: rssKb / 1024 }, expect };
    } finally {
      child.kill('SIGTERM');
    }
  },
});

/**
 * Writes a Codex-style rollout of `lines` lines to `path` without holding it in memory: a
 * session_meta, then every `turnEvery` lines one turn (turn_context, user message, call, its
 * token_count, output) and otherwise event_msg lines whose delta is `delta` (a few bytes: the
 * "many small events" case; kilobytes: the "bigger than a JS string" case).
 */
export function writeEventRollout(path, lines, { delta = 'hello', turnEvery = 1000 } = {}) {
  const fd = openSync(path, 'w');
  let buf = [];
  let bytes = 0;
  const flush = () => { writeSync(fd, buf.join('')); buf = []; };
  const put = (o) => {
    const line = JSON.stringify(o) + '\n';
    bytes += Buffer.byteLength(line);
    buf.push(line);
    if (buf.length >= 4096) flush();
  };
  put({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: '0190c0de-0000-7000-8000-00000000b039', cwd: '/workspace', cli_version: '0.105.0' } });
  let n = 1;
  let turn = 0;
  let total = 0;
  while (n < lines) {
    const timestamp = new Date(Date.UTC(2026, 0, 1) + n * 10).toISOString();
    if (n % turnEvery === 1 && n + 5 <= lines) {
      turn += 1;
      const input = 2000 + turn * 10;
      total += input;
      const usage = (i, o) => ({ input_tokens: i, cached_input_tokens: 0, output_tokens: o, reasoning_output_tokens: 0, total_tokens: i + o });
      put({ timestamp, type: 'turn_context', payload: { cwd: '/workspace', model: 'gpt-5.2' } });
      put({ timestamp, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `q${turn}` }] } });
      put({ timestamp, type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"cmd":"ls"}', call_id: `c${turn}` } });
      put({ timestamp, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage(total, turn), last_token_usage: usage(input, 1) } } });
      put({ timestamp, type: 'response_item', payload: { type: 'function_call_output', call_id: `c${turn}`, output: 'ok' } });
      n += 5;
    } else {
      put({ timestamp, type: 'event_msg', payload: { type: 'agent_message_delta', delta } });
      n += 1;
    }
  }
  flush();
  closeSync(fd);
  return { bytes, turns: turn };
}

CASES.push({
  name: 'replay: 1 M small events', small: 20000, stress: 1000000, unit: 'lines',
  // About 110 MB of ~100-byte lines and 1 000 requests. Once 30-32 s and 840 MB: every line was
  // parsed and kept before the pass; now one line at a time (bounds in docs/RELIABILITY.md).
  timeBoundMs: 30000,
  async run(dir, size) {
    const { turns } = writeEventRollout(join(dir, 'r.jsonl'), size);
    const r = await measure(['replay', '--json', join(dir, 'r.jsonl')], { cwd: dir, timeoutMs: 300000 });
    let requests = -1;
    try { requests = JSON.parse(r.stdout).summary.requests_with_usage; } catch { requests = -1; }
    return { r, expect: [['exit 0', ok(r)], ['every request counted', requests === turns]] };
  },
});

CASES.push({
  name: 'replay: rollout over 512 MB', small: 3 * MB, stress: 560 * 1000 * 1000, unit: 'bytes',
  // Over V8's longest string (2^29 − 24 characters): read whole into a string, it failed with
  // "cannot read the rollout" while resume read it. Now read in chunks straight into the guest.
  timeBoundMs: 60000,
  async run(dir, size) {
    const delta = 'x'.repeat(4000);
    const { bytes, turns } = writeEventRollout(join(dir, 'r.jsonl'), Math.ceil(size / 4000) + 10, { delta, turnEvery: 2000 });
    const r = await measure(['replay', '--json', join(dir, 'r.jsonl')], { cwd: dir, timeoutMs: 300000 });
    let report;
    try { report = JSON.parse(r.stdout); } catch { report = undefined; }
    return { r, expect: [['exit 0', ok(r)], ['the file is the size asked for', bytes >= size], ['every request counted', report?.summary.requests_with_usage === turns]] };
  },
});

/** Runs one case at `mode` ('small' | 'stress') in a fresh temp dir. */
export async function runCase(c, mode) {
  const dir = mkdtempSync(join(tmpdir(), 'actx-hostile-'));
  try {
    const size = c[mode];
    const { r, expect } = await c.run(dir, size);
    const failed = expect.filter(([, pass]) => !pass).map(([label]) => label);
    return { name: c.name, size, unit: c.unit, timeBoundMs: c.timeBoundMs ?? 10000, ms: r.ms, rssMb: r.rssMb, code: r.code, signal: r.signal, failed, stderr: r.stderr.slice(-600) };
  } finally {
    spawnSync('rm', ['-rf', dir]); // rmSync recurses in JS and overflows on a 2 000-level tree
  }
}
