// SPDX-License-Identifier: MIT
// Base instructions through the CLI: `inspect` on a real-model config shows the
// engine's base instructions (core/prompts) as the request's `instructions`; the config
// overrides them per model, and "" sends none. The mock model gets them too (docs/base-instructions.md).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const tmp = tempTree({ 'ws/README.md': '# demo\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');
const home = join(tmp.dir, 'home');
const prompt = (name) => readFileSync(join(REPO, 'core/prompts', name), 'utf8');
const BASE = prompt('base_instructions.md') + prompt('base_instructions_tools.md');

async function inspectBody(...args) {
  const r = await runCli(['inspect', '--workspace', ws, '--home', home, ...args, 'hello'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function configFile(name, config) {
  const path = join(tmp.dir, name);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

test('inspect on a real-model config shows the base instructions', async () => {
  const body = await inspectBody('--model', 'gpt-5.1');
  assert.equal(body.model, 'gpt-5.1');
  assert.equal(body.instructions, BASE);
  assert.ok(!JSON.stringify(body.input).includes('You are a coding agent.'));
});

test('the mock model gets them too; without built-in tools the tools part is left out', async () => {
  assert.equal((await inspectBody()).instructions, BASE);
  const noTools = await inspectBody('--config', configFile('no-tools.json', { builtin_tools: false }));
  assert.equal(noTools.instructions, prompt('base_instructions.md'));
  assert.deepEqual(noTools.tools, []);
});

test('model.instructions overrides them per model; "" sends none', async () => {
  const custom = await inspectBody('--config', configFile('custom.json', { model: { slug: 'gpt-5.1', instructions: 'Custom.' } }));
  assert.equal(custom.instructions, 'Custom.');
  const none = await inspectBody('--config', configFile('none.json', { model: { slug: 'gpt-5.1', instructions: '' } }));
  assert.equal('instructions' in none, false);
});
