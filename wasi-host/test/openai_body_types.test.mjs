// SPDX-License-Identifier: MIT
// The request bodies the engine renders for gpt-5.6 with provider feature cache_breakpoints on
// (`prompt_cache_options`, `prompt_cache_breakpoint` on input content blocks) type-check against
// the official openai@7 request type: tests/fixtures/provider_bodies/gpt56_breakpoints.ts holds
// them (a native golden test keeps it current) with `satisfies ResponseCreateParamsStreaming[]`,
// so a field the SDK does not know, or a value outside its literal types, fails tsc. The same
// project checks the bodies with native tool changes and system-message notices
// (tests/unit/session/native_body_types_test.cc writes them): responses_tool_changes.ts against
// ResponseCreateParamsStreaming, anthropic_system_messages.ts against @anthropic-ai/sdk's beta
// MessageCreateParamsStreaming, and responses_later_turn_tool_changes.ts (a change after two
// turns) against ResponseCreateParamsStreaming with `input` widened by one shape: assistant
// messages as recorded (`output_text` without `annotations`, as Codex sends them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const project = fileURLToPath(new URL('./types/tsconfig.openai_bodies.json', import.meta.url));
const fixture = new URL('../../tests/fixtures/provider_bodies/gpt56_breakpoints.ts', import.meta.url);
const run = promisify(execFile);

test('the fixture holds bodies with options and breakpoints in both modes', () => {
  const text = readFileSync(fixture, 'utf8');
  assert.match(text, /"prompt_cache_options":\{[^}]*"mode":"implicit","ttl":"30m"\}/);
  assert.match(text, /"prompt_cache_options":\{[^}]*"mode":"explicit","ttl":"30m"\}/);
  assert.match(text, /"prompt_cache_breakpoint":\{"mode":"explicit"\}/);
  assert.doesNotMatch(text, /prompt_cache_retention/);
});

test('the fixtures hold native tool changes and system-message notices', () => {
  const responses = readFileSync(new URL('responses_tool_changes.ts', fixture), 'utf8');
  assert.match(responses, /\{"type":"additional_tools","role":"developer","tools":\[\{"type":"function"/);
  assert.match(responses, /satisfies ResponseCreateParamsStreaming\[\]/);
  const later = readFileSync(new URL('responses_later_turn_tool_changes.ts', fixture), 'utf8');
  assert.match(later, /\{"type":"additional_tools","role":"developer","tools":\[\{"type":"function"/);
  assert.match(later, /"type":"function_call_output"/);
  // The widening covers assistant messages as recorded, nothing else.
  assert.match(later, /type BodyAsSent = Omit<ResponseCreateParamsStreaming, 'input'> & \{\n  input: \(ResponseInputItem \| AssistantAsRecorded\)\[\];\n\};/);
  const anthropic = readFileSync(new URL('anthropic_system_messages.ts', fixture), 'utf8');
  assert.match(anthropic, /\{"role":"system","content":\[\{"type":"text","text":"<permissions instructions>/);
  assert.match(anthropic, /\{"type":"tool_addition","tool":\{"type":"tool_definition","definition":/);
  assert.match(anthropic, /\{"type":"tool_removal","tool":\{"type":"tool_reference","name":/);
  assert.match(anthropic, /satisfies MessageCreateParamsStreaming\[\]/);
});

test('provider bodies (breakpoints, native tool changes, system messages) satisfy the SDK types', { timeout: 120000 }, async () => {
  const r = await run(process.execPath, [tsc, '-p', project]).catch((e) => e);
  assert.equal(r.code ?? 0, 0, `${r.stdout}${r.stderr}`);
});
