// SPDX-License-Identifier: MIT
// The session fixture corpus (tests/fixtures/sessions) replayed through the WASI guest: each
// script's workspace files are written to a temp directory preopened as /workspace (the guest's
// PosixFileSystem), the guest's `mock.respond` plays the model. Every output must equal the
// expected files the native, Emscripten and Embind runs compare against, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { loadHost } from './helpers.mjs';
import {
  compareWithExpected, listCases, readScript, runSessionScript,
} from '../../tests/support/session_script.mjs';

const { WasiGuest } = await loadHost();

for (const name of listCases()) {
  test(`session fixture ${name} (WASI guest)`, async (t) => {
    const script = readScript(name);
    const dir = mkdtempSync(join(tmpdir(), 'agentctx-fixture-'));
    const hostPath = (path) => join(dir, path.slice('/workspace/'.length));
    const write = (path, text) => {
      mkdirSync(dirname(hostPath(path)), { recursive: true });
      writeFileSync(hostPath(path), text);
    };
    try {
      for (const [path, text] of Object.entries(script.files ?? {})) write(path, text);
      // Writable: built-in write_file is governed by the sandbox policy, as with the memory FS.
      const guest = await WasiGuest.load({ workspace: dir, writable: true });
      const handle = guest.open();
      const result = runSessionScript(script, {
        session: (method, json) => guest.call(handle, method, json),
        attachment: (index) => guest.attachment(handle, index),
        engine: (method, json, inputs) => guest.callResult(0, method, json, inputs).envelope,
        write,
        remove: (path) => unlinkSync(hostPath(path)),
      });
      guest.close(handle);
      assert.deepEqual(compareWithExpected(name, result), []);
      t.diagnostic(`token usage: ${result.summary.slice(0, result.summary.indexOf(',"cache_summary"'))}}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
