// SPDX-License-Identifier: MIT
// The playground's prompt-order body comparison (web/body_diff.js), without a browser: the
// highlight starts where the cache-break explainer says the prompt first differs, in the
// explainer's order (instructions, tools, conversation), whatever order the body's members are
// written in; the bytes not reused split into changed and unchanged-after-the-difference, with
// the first differing byte located; and the cost sentence of a series without usage (web/chart.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { elements, members, promptDiff } from '../web/body_diff.js';
import { NO_USAGE, costText } from '../web/chart.js';

const body = (o) => JSON.stringify(o);
const text = (b, diff, kind) => diff.runs.filter((r) => r.kind === kind).map((r) => b.slice(r.start, r.end)).join('');
const msg = (t) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: t }] });
const tool = (name) => ({ type: 'function', name });

test('members and elements find the top-level values and array items', () => {
  const b = '{"a":"x\\"}","b":[1,{"c":[2]},"]"],"d":null}';
  const m = members(b);
  assert.deepEqual([...m.keys()], ['a', 'b', 'd']);
  assert.equal(b.slice(m.get('b').start, m.get('b').end), '[1,{"c":[2]},"]"]');
  assert.deepEqual(elements(b, m.get('b').start, m.get('b').end).map((r) => b.slice(r.start, r.end)), ['1', '{"c":[2]}', '"]"']);
  assert.equal(members('not json'), null);
});

test('a tools change: the tools differ from their first changed byte, the whole input is not reused', () => {
  const before = body({ model: 'm', instructions: 'I', input: [msg('one')], tools: [tool('a')] });
  const after = body({ model: 'm', instructions: 'I', input: [msg('one'), msg('two')], tools: [tool('a'), tool('b')] });
  const diff = promptDiff(before, after, { break: { reason: 'tools_changed', section: 'tools' } });
  assert.equal(diff.freshFrom, 'tools');
  assert.equal(text(after, diff, 'fresh'), `${body([msg('one'), msg('two')])},${body(tool('b'))}]`);
  assert.equal(text(after, diff, 'reused'), `"I"[${body(tool('a'))}`);
});

test('no break: the previous items are reused even if an old item was re-rendered', () => {
  const mark = (m) => ({ ...m, cache_control: { type: 'ephemeral' } });
  const before = body({ model: 'm', system: 'S', messages: [mark(msg('one'))], tools: [tool('a')] });
  const after = body({ model: 'm', system: 'S', messages: [msg('one'), mark(msg('two'))], tools: [tool('a')] });
  const diff = promptDiff(before, after, { break: null });
  assert.equal(diff.freshFrom, 'input');
  assert.equal(text(after, diff, 'fresh'), `,${body(mark(msg('two')))}]`);
  // With a break in the conversation, the byte comparison decides.
  const edited = promptDiff(before, after, { break: { reason: 'item_edited', section: 'user', item_index: 0 } });
  assert.equal(edited.freshFrom, 'input');
  assert.ok(text(after, edited, 'fresh').startsWith('}'), text(after, edited, 'fresh'));
});

test('a model change reuses nothing; the first request is all new', () => {
  const a = body({ model: 'm1', instructions: 'I', input: [msg('x')], tools: [] });
  const b = body({ model: 'm2', instructions: 'I', input: [msg('x')], tools: [] });
  const diff = promptDiff(a, b, { break: { reason: 'model_changed', section: 'model' } });
  assert.equal(diff.freshFrom, 'instructions');
  assert.equal(diff.reused, 0);
  assert.equal(promptDiff('', a, null).reused, 0);
  assert.equal(promptDiff('', a, null).freshFrom, 'instructions');
});

const changedText = (b, diff, changed) => diff.runs.filter((r) => r.kind === 'fresh' && r.changed === changed).map((r) => b.slice(r.start, r.end)).join('');

test('a tools change: the first differing byte is in the tools; the re-sent conversation is unchanged, the new item changed', () => {
  const before = body({ model: 'm', instructions: 'I', input: [msg('one')], tools: [tool('a')] });
  const after = body({ model: 'm', instructions: 'I', input: [msg('one'), msg('two')], tools: [tool('a'), tool('b')] });
  const diff = promptDiff(before, after, { break: { reason: 'tools_changed', section: 'tools' } });
  // In body order the conversation comes first, but the first difference is the new tool.
  assert.deepEqual(diff.bodyOrder, ['instructions', 'input', 'tools']);
  assert.equal(after.slice(diff.firstDiff), `,${body(tool('b'))}]}`);
  const first = diff.runs.filter((r) => r.first);
  assert.equal(first.length, 1);
  assert.equal(first[0].start, diff.firstDiff);
  assert.equal(first[0].changed, true);
  assert.equal(changedText(after, diff, true), `,${body(msg('two'))},${body(tool('b'))}`);
  assert.equal(changedText(after, diff, false), `[${body(msg('one'))}]]`);
});

test('Anthropic, a tool removed mid-array: compared tools → system → messages; what follows the change is re-sent', () => {
  const before = body({ model: 'm', system: 'S', tools: [tool('a'), tool('b'), tool('c')], messages: [msg('x')] });
  const after = body({ model: 'm', system: 'S', tools: [tool('a'), tool('c')], messages: [msg('x')] });
  const diff = promptDiff(before, after, { break: { reason: 'tools_changed', section: 'tools' } });
  assert.deepEqual(diff.bodyOrder, ['instructions', 'tools', 'input']);
  // Anthropic's cache reads the tools before the system prompt.
  assert.deepEqual(diff.readOrder, ['tools', 'instructions', 'input']);
  // The bytes agree up to the removed tool's name: "a", then "b" became "c".
  assert.ok(after.slice(diff.firstDiff).startsWith('c"}]'), after.slice(diff.firstDiff));
  // Only the element holding the first difference counts as changed; the system prompt (after
  // the tools in Anthropic's order) and the messages are re-sent.
  assert.equal(changedText(after, diff, true), 'c"}');
  assert.equal(changedText(after, diff, false), `"S"][${body(msg('x'))}]`);
});

test('an appended item equal to an older one is still changed (aligned by position, not by membership)', () => {
  const before = body({ model: 'm', instructions: 'I', input: [msg('hi'), msg('x')], tools: [tool('a')] });
  const after = body({ model: 'm', instructions: 'I', input: [msg('hi'), msg('x'), msg('hi')], tools: [tool('a'), tool('b')] });
  const diff = promptDiff(before, after, { break: { reason: 'tools_changed', section: 'tools' } });
  assert.equal(changedText(after, diff, true), `,${body(msg('hi'))},${body(tool('b'))}`);
});

test('a model change: the first difference is the model value, every prompt byte re-sent unchanged', () => {
  const a = body({ model: 'm1', instructions: 'I', input: [msg('x')], tools: [] });
  const b = body({ model: 'm2', instructions: 'I', input: [msg('x')], tools: [] });
  const diff = promptDiff(a, b, { break: { reason: 'model_changed', section: 'model' } });
  assert.equal(b.slice(diff.firstDiff, diff.firstDiff + 4), '"m2"');
  assert.equal(changedText(b, diff, true), '');
  assert.ok(diff.runs.some((r) => r.kind === 'plain' && r.changed && r.first));
});

test('a string part: only the middle between the common prefix and suffix is changed', () => {
  const a = body({ model: 'm', instructions: 'You are helpful. Rule A. End.', input: [msg('x')] });
  const b = body({ model: 'm', instructions: 'You are helpful. Rule B. End.', input: [msg('x')] });
  const diff = promptDiff(a, b, { break: { reason: 'instructions_changed', section: 'instructions' } });
  assert.equal(changedText(b, diff, true), 'B');
  assert.equal(b.slice(diff.firstDiff, diff.firstDiff + 1), 'B');
});

test('a body that is not a JSON object is compared byte by byte', () => {
  const diff = promptDiff('abcXYZ', 'abcdXYZ', null);
  assert.equal(diff.promptOrder, false);
  assert.deepEqual(diff.runs.map((r) => r.kind), ['reused', 'fresh', 'plain']);
});

test('no usage: the cost sentence says so instead of $0', () => {
  assert.equal(costText([], { input: 1, cached: 0.1, output: 2 }, 0), NO_USAGE);
  assert.match(costText([{ input: 1000, cached: 0 }], { input: 1, cached: 0.1, output: 2 }, 0), /^Estimated cost: \$/);
});
