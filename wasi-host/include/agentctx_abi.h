// SPDX-License-Identifier: MIT
// The WASI C ABI of agentctx.wasm (docs/boundary.md): a thin transport over
// agentctx::Engine::Call, so method names, JSON and errors equal the Embind package's.
// Invariants:
//  - Every function here is an export of the reactor (ACTX_EXPORT = extern "C" +
//    export_name); wasi-host/test compares WebAssembly.Module.exports() with this list.
//    Natively and under Emscripten (tests/abi, speed comparisons) they are plain C functions.
//  - Output sits in a per-handle buffer (handle 0 = the engine itself); it stays valid until
//    the next actx_call on the same handle or until the handle is closed. There is no global
//    boundary buffer. Memory may grow during any call: hosts re-create their views afterwards.
//  - actx_call returns 0 for an ok envelope, 1 for an error envelope, -1 for a bad handle
//    (nothing is written, no buffer changes).
//  - Attachments (agentctx/engine.h, docs/boundary.md): large bytes cross beside the envelope as
//    pointer/length pairs, never escaped into it. In: actx_attach(handle, n) returns a buffer of
//    n bytes that becomes input attachment k of the next actx_call on that handle (k counts the
//    actx_attach calls since the last actx_call); the host fills it before that call. Out: an
//    envelope value {"$bytes":i,"length":n} names output attachment i, read with
//    actx_attachment_ptr/len; valid, like the envelope, until the next call on the handle.
#pragma once

#include <stdint.h>

#ifdef __cplusplus
#define ACTX_EXTERN_C extern "C"
#else
#define ACTX_EXTERN_C
#endif

// Only the WASI reactor exports by name; Emscripten (tests/abi under Node) and native builds see
// plain C functions.
#if defined(__wasi__)
#define ACTX_EXPORT(name) ACTX_EXTERN_C __attribute__((export_name(#name)))
#else
#define ACTX_EXPORT(name) ACTX_EXTERN_C
#endif

/// The ABI revision (2: attachments). Bumped on any incompatible change of this header.
ACTX_EXPORT(actx_abi_version) uint32_t actx_abi_version(void);
/// Allocates `size` bytes in guest memory for the host to fill (never null for size 0).
ACTX_EXPORT(actx_alloc) uint8_t* actx_alloc(uint32_t size);
/// Frees a block from actx_alloc (`size` is the size asked for); null is ignored.
ACTX_EXPORT(actx_free) void actx_free(uint8_t* ptr, uint32_t size);
/// Opens a new session slot with its `workspace` FileSystem; 0 = table full.
ACTX_EXPORT(actx_open) uint32_t actx_open(void);
/// Closes a session slot and drops its output buffer; unknown handles (and 0) are ignored.
ACTX_EXPORT(actx_close) void actx_close(uint32_t handle);
/// Calls `method` (UTF-8) on `handle` with a JSON `input` (UTF-8); the envelope goes to the
/// handle's output buffer. 0 ok envelope, 1 error envelope, -1 bad handle (no output).
ACTX_EXPORT(actx_call)
int32_t actx_call(uint32_t handle, const uint8_t* method, uint32_t method_len, const uint8_t* input,
                  uint32_t input_len);
/// The last envelope of `handle`; valid until the next call on that handle. Null for a bad
/// handle.
ACTX_EXPORT(actx_output_ptr) const uint8_t* actx_output_ptr(uint32_t handle);
/// Byte length of the last envelope of `handle` (0 for a bad handle or before any call).
ACTX_EXPORT(actx_output_len) uint32_t actx_output_len(uint32_t handle);
/// A buffer of `size` bytes that becomes the next input attachment of the next actx_call on
/// `handle`, for the host to fill first. Null for a bad handle. Freed by that call (or Close).
ACTX_EXPORT(actx_attach) uint8_t* actx_attach(uint32_t handle, uint32_t size);
/// Number of output attachments of the last call on `handle` (0 for a bad handle).
ACTX_EXPORT(actx_attachment_count) uint32_t actx_attachment_count(uint32_t handle);
/// Output attachment `index` of the last call on `handle`; valid until the next call on that
/// handle. Null for a bad handle or index (then its length is 0).
ACTX_EXPORT(actx_attachment_ptr)
const uint8_t* actx_attachment_ptr(uint32_t handle, uint32_t index);
/// Byte length of output attachment `index` of the last call on `handle`.
ACTX_EXPORT(actx_attachment_len) uint32_t actx_attachment_len(uint32_t handle, uint32_t index);
