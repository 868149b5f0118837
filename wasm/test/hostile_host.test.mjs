// SPDX-License-Identifier: MIT
// A hostile host through the package: FileSystem answers that throw when read (getters, Proxy
// traps, a Uint8Array whose `length` lies), a `list` answer claiming 2^32 − 1 entries, calls
// into the engine from inside a FileSystem callback (a query, a second session.start, close(),
// dispose()), deliveries whose `sse` has the wrong type and clocks that answer NaN. Each is a
// clear AgentctxError or a working answer; nothing throws a raw exception, traps or hangs the
// module, and the engine keeps working afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { AgentctxError, createEngine, createMemoryFileSystem, mockModelClient, runTurn } from 'agentctx';

const CONFIG = {
  session_id: 's-hostile',
  model: { slug: 'mock-1' },
  builtin_tools: false,
  environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }],
};
// Probe mode: every step stats AGENTS.md candidates through the FileSystem.
const PROBE_CONFIG = { ...CONFIG, agents_md: { refresh: 'probe' } };

const isAgentctxError = (code) => (error) => {
  assert.ok(error instanceof AgentctxError, `a raw ${error?.constructor?.name}: ${error?.message}`);
  assert.equal(error.code, code, error.message);
  return true;
};

// A memory FileSystem whose methods can be replaced per test.
function hostileFs(overrides = {}) {
  const inner = createMemoryFileSystem({ '/repo/a.txt': 'abc' });
  return {
    stat: (p) => inner.stat(p),
    read: (p, n) => inner.read(p, n),
    list: (p) => inner.list(p),
    write: (p, b, c) => inner.write(p, b, c),
    sandboxed: () => true,
    ...overrides,
  };
}

class LyingBytes extends Uint8Array {
  get length() { return 1e9; }
  get byteLength() { throw new RangeError('byteLength trap'); }
  subarray() { throw new RangeError('subarray trap'); }
}

const HOSTILE_ANSWERS = {
  'a throwing `ok` getter': { stat: () => ({ get ok() { throw new Error('ok getter'); } }) },
  'a Proxy whose traps throw': {
    stat: () => new Proxy({}, { get() { throw new RangeError('get trap'); }, has() { throw new Error('has'); } }),
  },
  'a throwing `entries` getter': { list: () => ({ ok: true, get entries() { throw new Error('entries getter'); } }) },
  'an entry whose `name` getter throws': {
    list: () => ({ ok: true, entries: [{ get name() { throw new Error('name getter'); }, kind: 'file' }] }),
  },
  'a throwing `data` getter': { read: () => ({ ok: true, get data() { throw new Error('data getter'); } }) },
  'a failure whose `message` getter throws': {
    stat: () => ({ ok: false, code: 'not_found', get message() { throw new Error('message getter'); } }),
  },
  'an exception whose `message` getter throws': {
    stat: () => { throw Object.create(Error.prototype, { message: { get() { throw new Error('x'); } } }); },
  },
};

function callFor(name) {
  if (name.includes('entries') || name.includes('entry')) return ['fs.list', { fs: 'workspace', path: '/repo' }];
  if (name.includes('data')) return ['fs.read', { fs: 'workspace', path: '/repo/a.txt' }];
  return ['fs.stat', { fs: 'workspace', path: '/repo/a.txt' }];
}

test('Regression hostile FileSystem answers that throw when read are io errors, never raw exceptions', async () => {
  const engine = await createEngine();
  for (const [name, overrides] of Object.entries(HOSTILE_ANSWERS)) {
    const session = engine.openSession({ workspace: hostileFs(overrides) });
    const [method, input] = callFor(name);
    assert.throws(() => session.call(method, input), isAgentctxError('io'), name);
    // A session over the same FileSystem starts (failed reads are warnings or clean errors).
    try {
      session.call('session.start', { config: CONFIG, now_ms: 0 });
    } catch (error) {
      assert.ok(error instanceof AgentctxError, `${name}: session.start threw a raw ${error?.constructor?.name}`);
    }
    session.close();
  }
  // The lying Uint8Array: its real bytes are read, whatever its `length` getter says.
  const liar = new LyingBytes(3);
  liar.set([0x61, 0x62, 0x63]);
  const session = engine.openSession({ workspace: hostileFs({ read: () => ({ ok: true, data: liar }) }) });
  assert.deepEqual(session.call('fs.read', { fs: 'workspace', path: '/repo/a.txt' }), { text: 'abc', bytes: 3 });
  assert.deepEqual(session.call('fs.read', { fs: 'workspace', path: '/repo/a.txt', max_bytes: 2 }), { text: 'ab', bytes: 2 });
  // A failure's code and message are copied as they were.
  const failing = engine.openSession({ workspace: hostileFs({ stat: () => ({ ok: false, code: 'permission_denied', message: 'no' }) }) });
  assert.throws(() => failing.call('fs.stat', { fs: 'workspace', path: '/x' }), (e) => {
    assert.equal(e.code, 'permission_denied');
    assert.equal(e.details?.message, 'no');
    return true;
  });
  failing.close();
  session.close();
  assert.equal(engine.stats().open_handles, 0);
  engine.dispose();
});

test('Regression a thousand throwing FileSystem answers leave the module working', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: hostileFs(HOSTILE_ANSWERS['a throwing `ok` getter']) });
  for (let i = 0; i < 1000; i++) {
    assert.throws(() => session.call('fs.stat', { fs: 'workspace', path: '/repo/a.txt' }), isAgentctxError('io'));
  }
  session.close();
  // A normal session, in this engine and in a new one, still works (the module did not leak
  // its stack or hang).
  for (const e of [engine, await createEngine()]) {
    const normal = e.openSession({ workspace: createMemoryFileSystem({ '/repo/AGENTS.md': 'reply prefix: [ok]\n' }) });
    normal.call('session.start', { config: CONFIG, now_ms: 0 });
    const result = await runTurn(normal, { input: 'hello', model: mockModelClient(e), now: () => 1000 });
    assert.equal(result.reason, 'completed');
    assert.equal(result.last_agent_message, '[ok] Mock reply to: hello');
    normal.close();
    e.dispose();
  }
});

test('Regression a list answer claiming 2^32 - 1 entries is an io error naming the limit, not an abort', async () => {
  const engine = await createEngine();
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  const proxy = new Proxy([], { get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : Reflect.get(target, key)) });
  for (const entries of [sparse, proxy]) {
    const session = engine.openSession({ workspace: hostileFs({ list: () => ({ ok: true, entries }) }) });
    assert.throws(() => session.call('fs.list', { fs: 'workspace', path: '/repo' }), (error) => {
      isAgentctxError('io')(error);
      assert.match(String(error.details?.message), /4294967295 entries; the limit is 1048576/);
      return true;
    });
    session.close();
  }
  // The module is intact.
  const session = engine.openSession({ workspace: hostileFs() });
  assert.deepEqual(session.call('fs.list', { fs: 'workspace', path: '/repo' }).entries, [{ name: 'a.txt', kind: 'file' }]);
  session.close();
  engine.dispose();
});

// A FileSystem whose stat runs `hook.fn` once, the next time it is armed.
function reentrantFs() {
  const hook = { fn: undefined };
  const fs = hostileFs({
    stat(path) {
      const fn = hook.fn;
      hook.fn = undefined;
      if (fn !== undefined) fn();
      return createMemoryFileSystem({ '/repo/a.txt': 'abc' }).stat(path);
    },
  });
  return { fs, hook };
}

test('Regression a query from inside a FileSystem callback is refused with invalid_state', async () => {
  const engine = await createEngine();
  const { fs, hook } = reentrantFs();
  const session = engine.openSession({ workspace: fs });
  session.call('session.start', { config: PROBE_CONFIG, now_ms: 0 });
  const inner = [];
  hook.fn = () => {
    for (const call of [() => session.call('history'), () => engine.stats()]) {
      try {
        inner.push(call());
      } catch (error) {
        inner.push(error);
      }
    }
  };
  const outer = session.call('submit', { text: 'hi', now_ms: 1 });
  assert.equal(inner.length, 2, 'submit stats AGENTS.md in probe mode');
  for (const error of inner) {
    isAgentctxError('invalid_state')(error);
    assert.match(error.message, /was called while another agentctx call is running \(from a FileSystem callback\)/);
  }
  assert.ok(outer.effects.some((e) => e.type === 'model_request'));
  assert.ok(Array.isArray(session.call('history')));
  session.close();
  engine.dispose();
});

test('Regression a second session.start from inside a FileSystem callback is refused', async () => {
  const engine = await createEngine();
  const { fs, hook } = reentrantFs();
  const session = engine.openSession({ workspace: fs });
  let inner;
  hook.fn = () => {
    try {
      session.call('session.start', { config: CONFIG, now_ms: 0 });
    } catch (error) {
      inner = error;
    }
  };
  session.call('session.start', { config: CONFIG, now_ms: 0 });
  isAgentctxError('invalid_state')(inner);
  // One session: the handle works, and a second start is refused as usual.
  assert.throws(() => session.call('session.start', { config: CONFIG, now_ms: 0 }), isAgentctxError('invalid_state'));
  assert.deepEqual(session.call('history'), []);
  session.close();
  engine.dispose();
});

test('Regression close() from inside a FileSystem callback is deferred and its call fails bad_handle', async () => {
  const engine = await createEngine();
  const { fs, hook } = reentrantFs();
  const session = engine.openSession({ workspace: fs });
  session.call('session.start', { config: PROBE_CONFIG, now_ms: 0 });
  hook.fn = () => session.close();
  assert.throws(() => session.call('submit', { text: 'hi', now_ms: 1 }), (error) => {
    isAgentctxError('bad_handle')(error);
    assert.match(error.message, /closed during this call/);
    return true;
  });
  assert.equal(session.closed, true);
  assert.equal(engine.stats().open_handles, 0);
  assert.throws(() => session.call('history'), isAgentctxError('bad_handle'));
  // dispose() inside a callback: the native engine is freed once the call returned.
  const other = engine.openSession({ workspace: fs });
  other.call('session.start', { config: PROBE_CONFIG, now_ms: 0 });
  hook.fn = () => engine.dispose();
  assert.throws(() => other.call('submit', { text: 'hi', now_ms: 1 }), isAgentctxError('bad_handle'));
  assert.throws(() => engine.stats(), isAgentctxError('invalid_state'));
  // Other engines of the realm are unaffected.
  const fresh = await createEngine();
  assert.equal(fresh.stats().open_handles, 0);
  fresh.dispose();
});

test('Regression a call into another engine or openSession() from inside a FileSystem callback is refused, and the heap stays intact', async () => {
  const engine = await createEngine();
  const other = await createEngine();
  const otherSession = other.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'abc' }) });
  const { fs, hook } = reentrantFs();
  const session = engine.openSession({ workspace: fs });
  const inner = [];
  hook.fn = () => {
    for (const call of [() => other.stats(), () => otherSession.call('history'), () => engine.openSession({ workspace: fs })]) {
      try {
        inner.push(call());
      } catch (error) {
        inner.push(error);
      }
    }
  };
  session.call('session.start', { config: CONFIG, now_ms: 0 });
  assert.equal(inner.length, 3);
  for (const error of inner) isAgentctxError('invalid_state')(error);
  // Nested calls used to free the running call's arguments a second time; many more calls,
  // nested refusals included, leave the module working.
  for (let i = 0; i < 200; i++) {
    hook.fn = () => {
      try {
        session.call('session.start', { config: CONFIG, now_ms: 0 });
      } catch {
        // refused
      }
    };
    session.call('fs.stat', { fs: 'workspace', path: '/repo/a.txt' });
  }
  assert.equal(engine.stats().open_handles, 1);
  otherSession.call('session.start', { config: CONFIG, now_ms: 0 });
  const result = await runTurn(otherSession, { input: 'hello', model: mockModelClient(other), now: () => 1000 });
  assert.equal(result.reason, 'completed');
  otherSession.close();
  session.close();
  other.dispose();
  engine.dispose();
});

test('calls from onEvent, onPersist and tool handlers still work (they run after the call returned)', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'abc' }) });
  session.call('session.start', { config: CONFIG, now_ms: 0 });
  let seen = 0;
  const result = await runTurn(session, {
    input: 'hi',
    model: mockModelClient(engine),
    now: () => 1000,
    onEvent: () => { session.call('history'); seen += 1; },
    onPersist: () => { engine.stats(); },
  });
  assert.equal(result.reason, 'completed');
  assert.ok(seen > 0);
  session.close();
  engine.dispose();
});

test('Regression a delivery sse of the wrong type is invalid_input naming the field; any bytes are accepted', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'abc' }) });
  session.call('session.start', { config: CONFIG, now_ms: 0 });
  const mock = mockModelClient(engine);
  // A client that answers with the mock's SSE as `shape(bytes)`.
  const client = (shape) => ({
    async *send(request, options) {
      for await (const delivery of mock.send(request, options)) {
        if (delivery.type === 'model_events' && delivery.sse !== undefined) {
          const bytes = typeof delivery.sse === 'string' ? new TextEncoder().encode(delivery.sse) : delivery.sse;
          yield { ...delivery, sse: shape(bytes) };
        } else {
          yield delivery;
        }
      }
    },
  });
  const copyBuffer = (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const accepted = {
    ArrayBuffer: copyBuffer,
    DataView: (bytes) => new DataView(copyBuffer(bytes)),
    'an odd-offset view': (bytes) => {
      const big = new Uint8Array(bytes.length + 3);
      big.set(bytes, 3);
      return new DataView(big.buffer, 3, bytes.length);
    },
  };
  for (const [name, shape] of Object.entries(accepted)) {
    const result = await runTurn(session, { input: `hi ${name}`, model: client(shape), now: () => 1000 });
    assert.equal(result.reason, 'completed', name);
    assert.equal(result.last_agent_message, `Mock reply to: hi ${name}`);
  }
  for (const [name, shape] of Object.entries({ number: () => 42, object: () => ({ a: 1 }), null: () => null })) {
    await assert.rejects(runTurn(session, { input: 'hi', model: client(shape), now: () => 1000 }), (error) => {
      isAgentctxError('invalid_input')(error);
      assert.match(error.message, /`sse` must be a string or bytes/, name);
      return true;
    });
  }
  // The rejected turns were interrupted: the session takes the next one.
  const result = await runTurn(session, { input: 'again', model: mock, now: () => 1000 });
  assert.equal(result.reason, 'completed');
  session.close();
  engine.dispose();
});

test('Regression now_ms NaN or Infinity is refused like a negative one, never taken as 1970', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'abc' }) });
  for (const bad of [NaN, Infinity, -Infinity, -1]) {
    assert.throws(() => session.call('session.start', { config: CONFIG, now_ms: bad }), (error) => {
      isAgentctxError('invalid_input')(error);
      assert.match(error.message, /now_ms must be a non-negative integer/);
      return true;
    }, String(bad));
  }
  session.call('session.start', { config: CONFIG, now_ms: 5000 });
  const lines = [];
  await assert.rejects(
    runTurn(session, { input: 'hi', model: mockModelClient(engine), now: () => NaN, onPersist: (l) => { lines.push(...l); } }),
    isAgentctxError('invalid_input'),
  );
  assert.deepEqual(lines, [], 'nothing was stamped');
  session.close();
  engine.dispose();
});
