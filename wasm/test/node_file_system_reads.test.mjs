// SPDX-License-Identifier: MIT
// How the engine reads through createNodeFileSystem: the guard reads files into one reused buffer
// (the core copies each answer within the call), so these check that no file ever sees another's
// bytes, that files beyond that buffer's cap read whole, that the FileSystem's own `read` still
// answers fresh bytes, and that a `read` replaced on the object is the one the engine calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createEngine, createNodeFileSystem } from 'agentctx';

function grepSse(k, args) {
  const item = { type: 'function_call', id: `fc_${k}`, name: 'grep', arguments: JSON.stringify(args), call_id: `call_${k}` };
  const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
  return `event: response.output_item.done\ndata: ${JSON.stringify({ type: 'response.output_item.done', output_index: 0, item })}\n\n` +
    `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { id: `resp_${k}`, usage } })}\n\n`;
}

// A session over `fs` whose grep(args) returns the tool's output text.
async function grepSession(fs) {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: fs });
  session.call('session.start', {
    config: { session_id: 's-reads', model: { slug: 'mock-1' }, environments: [{ id: 'local', cwd: '/', fs: 'workspace' }] },
    now_ms: 0,
  });
  let request = session.call('submit', { text: 'search', now_ms: 1 }).effects.find((e) => e.type === 'model_request');
  let k = 0;
  const grep = (args) => {
    k += 1;
    const r = session.call('deliver', { delivery: { type: 'model_events', request_id: request.id, sse: grepSse(k, args) }, now_ms: 1 + k });
    request = r.effects.find((e) => e.type === 'model_request');
    assert.ok(request, 'the tool output goes back to the model');
    const output = session.call('history').filter((h) => h.item.type === 'function_call_output' && h.item.call_id === `call_${k}`);
    assert.equal(output.length, 1);
    return output[0].item.output;
  };
  return { grep, close: () => { session.close(); engine.dispose(); } };
}

async function withDir(files, body) {
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-reads-'));
  try {
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('grep over a Node FileSystem: each file is searched with its own bytes only', async () => {
  const long = 'x'.repeat(300_000) + '\n' + 'stale_marker at the end of a long file\n';
  const mid = 'm'.repeat(600_000) + '\nmid_marker\n'; // grows the reused buffer
  // 1.6 MB: grep reads its first MiB, the largest the reused buffer holds.
  const huge = 'huge_marker at the top\n' + 'y\n'.repeat(800_000) + 'late_marker past the first MiB\n';
  const files = { 'a_long.txt': long, 'b_short.txt': 'short\n', 'c_mid.txt': mid, 'd_huge.txt': huge, 'e_tiny.txt': 'z' };
  await withDir(files, async (dir) => {
    const { grep, close } = await grepSession(createNodeFileSystem(dir));
    try {
      // A short file read into the buffer a long one filled would show the long one's marker.
      assert.equal(grep({ pattern: 'stale_marker' }), '/a_long.txt:2: stale_marker at the end of a long file');
      assert.equal(grep({ pattern: 'mid_marker' }), '/c_mid.txt:2: mid_marker');
      assert.equal(grep({ pattern: 'huge_marker' }), '/d_huge.txt:1: huge_marker at the top');
      assert.match(grep({ pattern: 'late_marker' }), /^No matches/);
      assert.equal(grep({ pattern: '^(short|z)$' }), '/b_short.txt:1: short\n/e_tiny.txt:1: z');
      // Twice over, in both directions of size, with the same answers.
      for (let i = 0; i < 2; i++) {
        assert.equal(grep({ pattern: 'marker' }), ['/a_long.txt:2: stale_marker at the end of a long file',
          '/c_mid.txt:2: mid_marker', '/d_huge.txt:1: huge_marker at the top'].join('\n'));
      }
    } finally {
      close();
    }
  });
});

test("a Node FileSystem's own read answers fresh bytes; a read replaced on it is the one the engine calls", async () => {
  await withDir({ 'a.txt': 'first file\n', 'b.txt': 'second\n' }, async (dir) => {
    const fs = createNodeFileSystem(dir);
    const a = fs.read('/a.txt', 1 << 20);
    const b = fs.read('/b.txt', 1 << 20);
    assert.equal(new TextDecoder().decode(a.data), 'first file\n');
    assert.equal(new TextDecoder().decode(b.data), 'second\n');
    assert.notEqual(a.data.buffer, b.data.buffer);

    const { grep, close } = await grepSession(fs);
    try {
      assert.equal(grep({ pattern: 'file|second' }), '/a.txt:1: first file\n/b.txt:1: second');
      assert.equal(new TextDecoder().decode(a.data), 'first file\n', 'an answer handed out earlier is never reused');
      const calls = [];
      fs.read = (path) => {
        calls.push(path);
        return { ok: false, code: 'permission_denied', message: path };
      };
      const out = grep({ pattern: 'file|second' });
      assert.deepEqual(calls, ['/a.txt', '/b.txt']);
      assert.match(out, /^No matches for file\|second in \//);
      assert.match(out, /\(skipped 2 unreadable files\)$/);
    } finally {
      close();
    }
  });
});

// Files whose size says nothing: procfs reports 0 for files that read in pieces; a FIFO has no size,
// and opening one for reading used to wait for a writer (the whole thread, in a child here).
test('createNodeFileSystem reads a procfs file whole though its size reads 0', (t) => {
  if (process.platform !== 'linux') return t.skip('procfs is Linux only');
  const r = createNodeFileSystem('/proc/self').read('/maps', 1 << 24);
  assert.equal(r.ok, true, JSON.stringify(r));
  const text = Buffer.from(r.data).toString();
  assert.ok(text.length > 4096 && text.endsWith('\n'), `${text.length} bytes`);
});

test('Regression FifoInWorkspace: createNodeFileSystem reads a FIFO at once, with or without a writer, and fails to write one without a reader', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-fifo-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  if (spawnSync('mkfifo', [join(dir, 'pipe')]).status !== 0) return t.skip('mkfifo is not available');
  const script = `
    import { openSync, writeSync, constants } from 'node:fs';
    const { createNodeFileSystem } = await import(${JSON.stringify(import.meta.resolve('agentctx'))});
    const fs = createNodeFileSystem(${JSON.stringify(dir)});
    const text = (r) => (r.ok ? Buffer.from(r.data).toString() : r.code);
    const alone = text(fs.read('/pipe', 1 << 20));
    const writer = openSync(${JSON.stringify(join(dir, 'pipe'))}, constants.O_RDWR | constants.O_NONBLOCK);
    writeSync(writer, 'x'.repeat(50000));
    const held = text(fs.read('/pipe', 1 << 20)).length;
    const { closeSync } = await import('node:fs');
    closeSync(writer);
    const written = fs.write('/pipe', new Uint8Array([120]), false);
    process.stdout.write(JSON.stringify({ alone, held, written: written.ok ? 'ok' : written.code }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000, encoding: 'utf8' });
  assert.equal(r.signal, null, 'a read or write waited for the other end (killed after 30 s)');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { alone: '', held: 50000, written: 'io' }); // ENXIO: no reader
});
