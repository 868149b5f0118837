// SPDX-License-Identifier: MIT
// The agent-grade tools through the CLI: a scripted session in which the embedded
// mock model calls edit_file, apply_patch, grep and glob (`#mock-…` directives) runs against a
// real temp workspace in the WASI guest. With --writable the files change exactly as asked;
// read-only (the default) every mutating call is refused and no byte of the workspace changes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, loadHost, readJsonl, runCli, tempTree } from './helpers.mjs';

await loadHost();

const FILES = {
  'src/main.rs': 'fn main() {\n    old();\n}\n',
  'src/lib.rs': '// TODO: tests\npub fn old() {}\n',
  'gone.txt': 'bye\n',
  'docs/keep.md': '# keep\n',
};

const SCRIPT = [
  { submit: '#mock-edit:src/main.rs=old()=>new()' },
  {
    submit: '#mock-patch:\n*** Begin Patch\n*** Add File: docs/notes.md\n+# Notes\n*** Delete File: gone.txt\n' +
      '*** Update File: src/lib.rs\n*** Move to: src/core.rs\n@@\n-pub fn old() {}\n+pub fn new() {}\n*** End Patch',
  },
  { submit: '#mock-grep:fn \\w+\\(' },
  { submit: '#mock-glob:**/*.md' },
  // A patch whose second hunk does not match: all or nothing.
  { submit: '#mock-patch:*** Begin Patch\\n*** Add File: never.txt\\n+x\\n*** Update File: docs/keep.md\\n@@\\n-nope\\n+x\\n*** End Patch' },
].map((s) => JSON.stringify(s)).join('\n') + '\n';

function workspace() {
  const spec = {};
  for (const [p, c] of Object.entries(FILES)) spec[`ws/${p}`] = c;
  const tree = tempTree(spec);
  writeFileSync(join(tree.dir, 'script.jsonl'), SCRIPT);
  return tree;
}

function snapshot(dir) {
  return Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

/** The tool outputs of the session's rollout, in order. */
function toolOutputs(home) {
  const [file] = listFiles(join(home, 'sessions'));
  return readJsonl(join(home, 'sessions', file))
    .filter((l) => l.type === 'response_item' && l.payload.type === 'function_call_output')
    .map((l) => l.payload.output);
}

async function runScript(tree, extra) {
  const ws = join(tree.dir, 'ws');
  const home = join(tree.dir, 'home');
  const r = await runCli(['run', '--workspace', ws, '--home', home, '--script', join(tree.dir, 'script.jsonl'), ...extra], { cwd: ws });
  return { r, ws, home };
}

test('--writable: the mock edits, patches (add, delete, move), greps and globs exactly as asked', async () => {
  const tree = workspace();
  after(tree.cleanup);
  const { r, ws, home } = await runScript(tree, ['--writable']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(snapshot(ws), {
    'docs/keep.md': '# keep\n',
    'docs/notes.md': '# Notes\n',
    'src/core.rs': '// TODO: tests\npub fn new() {}\n',
    'src/main.rs': 'fn main() {\n    new();\n}\n',
  });
  const outputs = toolOutputs(home);
  assert.deepEqual(outputs.slice(0, 4), [
    'Edited /workspace/src/main.rs: replaced 1 occurrence (line 2)',
    'Applied patch:\nA /workspace/docs/notes.md\nD /workspace/gone.txt\nM /workspace/src/core.rs (moved from /workspace/src/lib.rs)',
    '/workspace/src/core.rs:2: pub fn new() {}\n/workspace/src/main.rs:1: fn main() {',
    '/workspace/docs/keep.md\n/workspace/docs/notes.md',
  ]);
  assert.match(outputs[4], /^apply_patch failed: chunk 1 of \/workspace\/docs\/keep\.md does not match the file: these lines were not found:\nnope\. No files were changed\.$/);
  assert.match(r.stdout, /^Edited src\/main\.rs\.\nPatched 3 files\.\nFound 2 matches for fn \\w\+\\\(\.\nFound 2 files for \*\*\/\*\.md\.\n/);
});

test('read-only (the default): every mutating call is refused and nothing changes', async () => {
  const tree = workspace();
  after(tree.cleanup);
  const before = snapshot(join(tree.dir, 'ws'));
  const { r, ws, home } = await runScript(tree, []);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(snapshot(ws), before);
  const outputs = toolOutputs(home);
  assert.deepEqual(outputs, [
    'edit_file refused: sandbox_mode is read-only',
    'apply_patch refused: sandbox_mode is read-only',
    '/workspace/src/lib.rs:2: pub fn old() {}\n/workspace/src/main.rs:1: fn main() {',
    '/workspace/docs/keep.md',
    'apply_patch refused: sandbox_mode is read-only',
  ]);
});

test('workspace-write policy over a read-only mount: the preopen refuses, nothing changes', async () => {
  const tree = workspace();
  after(tree.cleanup);
  const before = snapshot(join(tree.dir, 'ws'));
  // The engine's policy allows the writes; the host's read-only /workspace refuses them.
  const { r, ws, home } = await runScript(tree, ['--sandbox', 'workspace-write']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(snapshot(ws), before);
  const outputs = toolOutputs(home);
  assert.match(outputs[0], /^edit_file failed: (permission_denied|not_capable): \/workspace\/src\/main\.rs$/);
  assert.match(outputs[1], /^apply_patch failed: (permission_denied|not_capable): \/workspace\/\S+\. No files were changed\.$/);
});
