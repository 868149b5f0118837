// SPDX-License-Identifier: MIT
// A trap kills the instance: WasiGuest drops it, raises guest_trap, and never
// calls into it again. Uses a hand-encoded module with the ABI's export names (helpers.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadHost, tinyModule } from './helpers.mjs';

const { WasiGuest, AgentctxHostError } = await loadHost();

const abi = (overrides) => tinyModule({
  _initialize: 0, actx_abi_version: 2, actx_alloc: 1024, actx_free: 0, actx_open: 5,
  actx_close: 0, actx_call: 0, actx_output_ptr: 2048, actx_output_len: 0, actx_attach: 3072,
  actx_attachment_count: 0, actx_attachment_ptr: 0, actx_attachment_len: 0, ...overrides,
});

test('the tiny module speaks the ABI', async () => {
  const guest = await WasiGuest.load({ wasm: abi({}) });
  assert.equal(guest.open(), 5);
  assert.deepEqual(guest.callResult(0, 'version', '{}'), { ok: true, envelope: '' });
});

test('a trap in actx_call raises guest_trap and drops the instance', async () => {
  const guest = await WasiGuest.load({ wasm: abi({ actx_call: 'trap' }) });
  assert.throws(() => guest.call(0, 'version', '{}'), (e) => {
    assert.ok(e instanceof AgentctxHostError);
    assert.equal(e.code, 'guest_trap');
    assert.ok(e.cause instanceof WebAssembly.RuntimeError);
    return true;
  });
  assert.equal(guest.trapped, true);
  // Every later use raises the same error without touching the instance.
  assert.throws(() => guest.open(), (e) => e.code === 'guest_trap');
  assert.throws(() => guest.close(1), (e) => e.code === 'guest_trap');
  assert.throws(() => guest.call(0, 'version', '{}'), (e) => e.code === 'guest_trap');
});

test('a trap in actx_open is a guest_trap too', async () => {
  const guest = await WasiGuest.load({ wasm: abi({ actx_open: 'trap' }) });
  assert.throws(() => guest.open(), (e) => e.code === 'guest_trap');
  assert.equal(guest.trapped, true);
});

test('a failed allocation is fatal for the instance', async () => {
  const guest = await WasiGuest.load({ wasm: abi({ actx_alloc: 0 }) });
  assert.throws(() => guest.call(0, 'version', '{}'), (e) => e.code === 'guest_trap');
});

test('a full session table and an ABI mismatch are reported', async () => {
  const full = await WasiGuest.load({ wasm: abi({ actx_open: 0 }) });
  assert.throws(() => full.open(), (e) => e.code === 'internal' && !full.trapped);
  await assert.rejects(WasiGuest.load({ wasm: abi({ actx_abi_version: 1 }) }),
    (e) => e.code === 'module_load_failed' && /ABI 1/.test(e.message));
});

// Guest pointers are unsigned; above 2 GiB they must not read as negative.
test('pointers above 2 GiB are read unsigned', async () => {
  const guest = await WasiGuest.load({ wasm: abi({ actx_alloc: -2147483648 }) });
  // 0x80000000 is far past this 1-page memory: the view fails (a RangeError, so a guest_trap),
  // but never a negative offset silently reading from the start of memory.
  assert.throws(() => guest.call(0, 'version', '{}'), (e) => e.code === 'guest_trap' && !/-2147483648/.test(String(e.cause?.message)));
});

test('bad handle (-1) is not a trap', async () => {
  const guest = await WasiGuest.load({ wasm: abi({ actx_call: -1 }) });
  assert.throws(() => guest.call(9, 'x', '{}'), (e) => e.code === 'bad_handle');
  assert.equal(guest.trapped, false);
});
