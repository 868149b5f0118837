// SPDX-License-Identifier: MIT
// The session fixture corpus (tests/fixtures/sessions) replayed through the built package
// (`import 'agentctx'`): an in-memory workspace from each script, the engine's `mock.respond`
// as the model. Every output must equal the expected files the native and WASI gtest runs also
// compare against, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createEngine, createMemoryFileSystem } from 'agentctx';
import {
  compareWithExpected, listCases, readScript, runSessionScript,
} from '../../tests/support/session_script.mjs';

const encoder = new TextEncoder();

// createMemoryFileSystem plus file removal (script `remove` steps): removed paths answer
// not_found and leave directory listings until written again.
function workspace(files) {
  const inner = createMemoryFileSystem(files);
  const removed = new Set();
  const gone = (path) => removed.has(path);
  return {
    fs: {
      stat: (path) => (gone(path) ? { ok: false, code: 'not_found', message: path } : inner.stat(path)),
      read: (path, max) => (gone(path) ? { ok: false, code: 'not_found', message: path } : inner.read(path, max)),
      list(path) {
        const r = inner.list(path);
        if (!r.ok) return r;
        const prefix = path === '/' ? '/' : `${path}/`;
        return { ok: true, entries: r.entries.filter((e) => !gone(prefix + e.name)) };
      },
      write(path, bytes, createParents) {
        const r = inner.write(path, bytes, createParents);
        if (r.ok) removed.delete(path);
        return r;
      },
      sandboxed: () => true,
    },
    write(path, text) {
      const r = this.fs.write(path, encoder.encode(text), true);
      if (!r.ok) throw new Error(`write ${path}: ${r.code}`);
    },
    remove(path) {
      if (gone(path) || !inner.stat(path).ok) throw new Error(`remove ${path}: not_found`);
      removed.add(path);
    },
  };
}

const engine = await createEngine();

for (const name of listCases()) {
  test(`session fixture ${name} (Embind package)`, (t) => {
    const script = readScript(name);
    const ws = workspace(script.files ?? {});
    const session = engine.openSession({ workspace: ws.fs });
    try {
      const result = runSessionScript(script, {
        session: (method, json) => session.callRaw(method, json),
        attachment: (index) => session.attachment(index),
        engine: (method, json, inputs) => engine.callRaw(method, json, inputs),
        write: (path, text) => ws.write(path, text),
        remove: (path) => ws.remove(path),
      });
      assert.deepEqual(compareWithExpected(name, result), []);
      t.diagnostic(`token usage: ${result.summary.slice(0, result.summary.indexOf(',"cache_summary"'))}}`);
    } finally {
      session.close();
    }
  });
}

test('the corpus is not empty', () => {
  assert.ok(listCases().length >= 8);
});
