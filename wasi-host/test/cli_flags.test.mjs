// SPDX-License-Identifier: MIT
// CLI rough edges: `--trust[=trusted|untrusted]` (a value after a space used to be
// taken as part of the prompt while the workspace was silently trusted), stray positional
// arguments refused, and a --config cwd that does not exist reported instead of accepted (and
// one that exists used, instead of being replaced by the workspace root).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const tmp = tempTree({ 'ws/AGENTS.md': 'project doc\n', 'ws/src/main.rs': 'fn main() {}\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');
const home = join(tmp.dir, 'home');
const cli = (...args) => runCli(['--workspace', ws, '--home', home, ...args], { cwd: ws });
const usage = (r) => {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^agentctx: [^\n]+\n$/);
  return r.stderr;
};
function configFile(name, config) {
  const path = join(tmp.dir, name);
  writeFileSync(path, JSON.stringify(config));
  return path;
}
const agentsText = async (...args) => {
  const r = await cli('inspect', '--json', '--format', 'agents', ...args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).text ?? '';
};

test('--trust, --trust=trusted and --trust=untrusted set the trust', async () => {
  assert.equal(await agentsText(), '');
  assert.equal(await agentsText('--trust'), 'project doc\n');
  assert.equal(await agentsText('--trust=trusted'), 'project doc\n');
  // --trust=untrusted overrides a config file that trusts.
  const trusting = configFile('trusting.json', { trust: 'trusted' });
  assert.equal(await agentsText('--config', trusting), 'project doc\n');
  assert.equal(await agentsText('--config', trusting, '--trust=untrusted'), '');
});

test('--trust followed by a separate value is refused with the spelling to use', async () => {
  const err = usage(await cli('run', '--trust', 'untrusted', 'hello'));
  assert.equal(err, "agentctx: --trust takes its value after '=': --trust=untrusted (see 'agentctx --help')\n");
  assert.match(usage(await cli('inspect', '--trust=maybe')), /--trust=maybe: expected trusted or untrusted/);
});

test('stray positional arguments are refused', async () => {
  assert.match(usage(await cli('run', 'hello', 'world')),
    /^agentctx: run takes PROMPT, got the extra argument 'world' \(quote a PROMPT of several words\)/);
  assert.match(usage(await cli('inspect', 'a', 'b', 'c')), /inspect takes \[PROMPT\], got the extra arguments 'b', 'c'/);
  assert.match(usage(await runCli(['replay', 'x.jsonl', 'y'], { cwd: ws })), /replay takes FILE\.jsonl, got the extra argument 'y'/);
  assert.match(usage(await runCli(['serve-mock', 'now'], { cwd: ws })), /serve-mock takes no arguments, got 'now'/);
  // One quoted PROMPT is fine.
  const ok = await cli('run', 'hello world');
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, 'Mock reply to: hello world\n');
});

test('a --config cwd that does not exist is reported', async () => {
  const missing = configFile('missing.json', { environments: [{ id: 'w', cwd: '/workspace/nope', fs: 'workspace' }] });
  const err = usage(await cli('inspect', '--config', missing, 'hi'));
  assert.equal(err, `agentctx: --config ${missing}: environments[0].cwd /workspace/nope: no such directory in the workspace\n`);
  usage(await cli('run', '--config', configFile('outside.json', { environments: [{ id: 'w', cwd: '/repo', fs: 'workspace' }] }), 'hi'));
  // An existing one is used (it used to be replaced by the workspace root); --cwd replaces it.
  const src = configFile('src.json', { environments: [{ id: 'w', cwd: '/workspace/src', fs: 'workspace' }] });
  const body = await cli('inspect', '--config', src, 'hi');
  assert.equal(body.code, 0, body.stderr);
  assert.ok(JSON.stringify(JSON.parse(body.stdout).input).includes('<cwd>/workspace/src</cwd>'));
  const replaced = await cli('inspect', '--config', missing, '--cwd', 'src', 'hi');
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.ok(JSON.stringify(JSON.parse(replaced.stdout).input).includes('<cwd>/workspace/src</cwd>'));
});
