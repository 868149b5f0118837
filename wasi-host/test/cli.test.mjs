// SPDX-License-Identifier: MIT
// The `agentctx` CLI (wasi-host/src/cli.ts), run as a process: --version, --help, call, and
// one-line errors with the documented exit codes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, REPO, loadHost, tempTree } from './helpers.mjs';

await loadHost();
const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version;
const tmp = tempTree({ 'ws/a.txt': 'A' });
after(tmp.cleanup);
const home = join(tmp.dir, 'home'); // does not exist: `call` must not create it

function agentctx(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: join(tmp.dir, 'ws'), encoding: 'utf8', env: { ...process.env, AGENTCTX_HOME: home },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('--version prints the engine version', () => {
  for (const flag of ['--version', '-V']) {
    assert.deepEqual(agentctx(flag), { code: 0, stdout: `agentctx ${version}\n`, stderr: '' });
  }
});

test('--help documents every flag and command', () => {
  const r = agentctx('--help');
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
  for (const word of ['--workspace DIR', '--home DIR', '--writable', '--help', '--version', '-h', '-V',
    '--cwd PATH', '--config FILE.json', '--trust', '--sandbox MODE', '--approval POLICY',
    '--agents-refresh MODE', '--model SLUG', '--provider API', '--base-url URL', '--api-key-env VAR', '--json',
    '-i, --interactive', '--script FILE.jsonl', '--dump-requests DIR', '--max-retries N',
    '--retry-base-ms MS', '--request-timeout-ms MS', '--format FMT', '--port N', '--clock CLOCK',
    'call METHOD [JSON]', 'run [OPTIONS] PROMPT', 'inspect [OPTIONS] [PROMPT]', 'replay FILE.jsonl',
    'resume FILE.jsonl [PROMPT]', 'serve-mock [--port N]', 'AGENTCTX_HOME', '{"submit":"text"}',
    '{"update":', '{"write":', '{"remove":', '{"tick_ms":N}', '{"compact":true}']) {
    assert.ok(r.stdout.includes(word), `help lacks ${word}`);
  }
  assert.equal(agentctx('-h').stdout, r.stdout);
});

test('call prints the envelope', () => {
  assert.deepEqual(agentctx('call', 'version'),
    { code: 0, stdout: `{"v":1,"ok":true,"value":{"version":"${version}"}}\n`, stderr: '' });
  const r = agentctx('--workspace', join(tmp.dir, 'ws'), 'call', 'config.echo', '{"b":2,"a":[1]}');
  assert.equal(r.code, 0);
  assert.equal(r.stdout, `{"v":1,"ok":true,"value":{"config":{"a":[1],"b":2},"version":"${version}"}}\n`);
  assert.equal(existsSync(home), false);
});

test('an error envelope exits 1 with a one-line error', () => {
  const r = agentctx('call', 'config.echo', '{bad');
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).error.code, 'invalid_json');
  assert.equal(r.stderr, 'agentctx: invalid_json: invalid JSON at byte 1: Missing a name for object member.\n');
  const u = agentctx('call', 'no.such.method');
  assert.equal(u.code, 1);
  assert.match(u.stderr, /^agentctx: unknown_method: [^\n]*\n$/);
});

test('usage errors exit 2 with one line on stderr and nothing on stdout', () => {
  for (const args of [[], ['--frob'], ['frob'], ['call'], ['call', 'version', '{}', 'extra'],
    ['run'], ['serve-mock', 'extra'], ['--workspace', join(tmp.dir, 'nope'), 'call', 'version'],
    ['--workspace', join(tmp.dir, 'ws/a.txt'), 'call', 'version'], ['--workspace']]) {
    const r = agentctx(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
    assert.match(r.stderr, /^agentctx: [^\n]+\n$/, args.join(' '));
  }
});

// A hostile --config nested 100 000 deep is a usage error (exit 2), not `internal`.
test('Regression: a 100 000-deep --config is a usage error', async () => {
  const { writeFileSync } = await import('node:fs');
  const file = join(tmp.dir, 'deep.json');
  writeFileSync(file, '{"a":'.repeat(100000) + '1' + '}'.repeat(100000));
  const r = agentctx('inspect', '--workspace', join(tmp.dir, 'ws'), '--config', file, '--format', 'agents');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^agentctx: --config .*deeper than 64 levels/m);
  assert.equal(r.stdout, '');
});
