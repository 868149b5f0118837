// SPDX-License-Identifier: MIT
// Unit tests of the CLI's MCP modules, in process: the approval rules (policy never,
// approved_tools, y / n / always at the prompt, prompts one at a time, refusal where nobody can
// answer), the shared stdin line reader, --mcp word splitting and the mcp_servers checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { DIST, loadHost } from './helpers.mjs';

await loadHost();
const { cliApprover } = await import(join(DIST, 'mcp_approval.js'));
const { LineReader } = await import(join(DIST, 'line_reader.js'));
const { mcpServers, serverFromFlag, splitCommand } = await import(join(DIST, 'mcp_config.js'));
const { buildConfig } = await import(join(DIST, 'config.js'));

const servers = [{ name: 'git', approvedTools: ['status'] }];
const request = (tool, args = '{"a":1}') => ({ server: 'git', tool, name: `mcp__git__${tool}`, arguments: args });

test('approval: never and approved_tools run without asking; nobody to ask refuses and names the setting', async () => {
  let policy = 'on-request';
  const approve = cliApprover({ servers, policy: () => policy, noAnswerReason: 'stdin is not a terminal' });
  assert.equal(await approve(request('status')), true);
  assert.equal(await approve(request('push')),
    'error: mcp__git__push was not run: MCP tools run outside the sandbox and need approval, and nobody can answer here ' +
    '(stdin is not a terminal); to allow it, set "approved_tools": ["push"] under mcp_servers.git in the --config file, or --approval never');
  policy = 'never';
  assert.equal(await approve(request('push')), true);
});

test('approval at a prompt: y runs once, a runs from then on, n declines, anything else asks again; one prompt at a time', async () => {
  const answers = ['what?', 'y', 'n', 'a'];
  const questions = [];
  let open = 0;
  const approve = cliApprover({
    servers, policy: () => 'on-request', noAnswerReason: '',
    ask: async (q) => {
      open += 1;
      assert.equal(open, 1, 'prompts never overlap');
      questions.push(q);
      await new Promise((r) => setTimeout(r, 5));
      open -= 1;
      return answers.shift();
    },
  });
  const results = await Promise.all([approve(request('push')), approve(request('push')), approve(request('push'))]);
  assert.deepEqual(results, [true, 'error: the user declined to run mcp__git__push', true]);
  assert.equal(questions.length, 4);
  assert.match(questions[0], /^agentctx: MCP tool mcp__git__push wants to run outside the sandbox with \{"a":1\}\. Run it\? \[y\]es \/ \[n\]o \/ \[a\]lways for this tool: $/);
  assert.equal(await approve(request('push')), true, 'always: no more questions');
  assert.equal(questions.length, 4);
  const ended = cliApprover({ servers, policy: () => 'on-request', noAnswerReason: '', ask: async () => undefined });
  assert.equal(await ended(request('push')), 'error: the user declined to run mcp__git__push (input ended)');
});

test('the line reader hands each line out once, in order, to whoever asks next', async () => {
  const input = new PassThrough();
  const reader = new LineReader(input);
  input.write('one\ntwo\n');
  assert.equal(await reader.next(), 'one');
  const pending = reader.next();
  assert.equal(await pending, 'two');
  const third = reader.next();
  input.end('three\n');
  assert.equal(await third, 'three');
  const rest = [];
  for await (const line of reader) rest.push(line);
  assert.deepEqual(rest, []);
  assert.equal(await reader.next(), undefined);
});

test('a question drops what was typed before it: queued lines and the unfinished one', async () => {
  const input = new PassThrough();
  const reader = new LineReader(input);
  input.write('#mock-call:x={}\na\nyes\nhalf');
  assert.equal(await reader.next(), '#mock-call:x={}', 'the REPL took its line');
  assert.equal(await reader.discardTypedAhead(), 3, 'a, yes and the unfinished "half"');
  const answer = reader.next();
  input.write('n\r\n');
  assert.equal(await answer, 'n', 'only what comes after the question answers it (CRLF ends a line too)');
  assert.equal(await reader.discardTypedAhead(), 0);
});

test('an interrupted prompt stops waiting and leaves the next line to the next asker', async () => {
  const input = new PassThrough();
  const reader = new LineReader(input);
  const abort = new AbortController();
  const waiting = reader.next(abort.signal);
  abort.abort();
  assert.equal(await waiting, undefined);
  input.write('for the REPL\n');
  assert.equal(await reader.next(), 'for the REPL');
  const approve = cliApprover({
    servers, policy: () => 'on-request', noAnswerReason: '',
    ask: (_q, signal) => reader.next(signal),
  });
  const turn = new AbortController();
  const verdict = approve({ ...request('push'), signal: turn.signal });
  turn.abort();
  assert.equal(await verdict, 'error: mcp__git__push was not run: the turn was interrupted');
  input.end('next\n');
  assert.equal(await reader.next(), 'next');
});

test('--mcp: words split like a shell line; a URL is a streamable-HTTP server; flags replace config entries', () => {
  assert.deepEqual(splitCommand(`npx -y "@scope/x y" 'a b' c\\ d`, 'w'), ['npx', '-y', '@scope/x y', 'a b', 'c d']);
  assert.throws(() => splitCommand(`x 'open`, '--mcp x'), /--mcp x: unterminated ' quote/);
  const stdio = serverFromFlag('fs=mcp-fs --root "/tmp/a b"');
  assert.deepEqual([stdio.name, stdio.command, stdio.args], ['fs', 'mcp-fs', ['--root', '/tmp/a b']]);
  assert.equal(stdio.toolTimeoutMs, 60000);
  assert.equal(stdio.startupTimeoutMs, 10000);
  assert.equal(serverFromFlag('remote=https://mcp.example.test/mcp').url, 'https://mcp.example.test/mcp');
  const merged = mcpServers({ mcp_servers: { fs: { command: 'old', cwd: 'sub' }, git: { command: 'git-mcp' } } }, '/etc/agentctx/c.json', ['fs=new']);
  assert.deepEqual(merged.map((s) => [s.name, s.command, s.cwd]), [['fs', 'new', undefined], ['git', 'git-mcp', undefined]]);
  const withCwd = mcpServers({ mcp_servers: { fs: { command: 'x', cwd: 'sub' } } }, '/etc/agentctx/c.json', []);
  assert.equal(withCwd[0].cwd, '/etc/agentctx/sub', 'a relative cwd is taken from the config file');
  assert.throws(() => mcpServers({}, undefined, ['a=x', 'a=y']), /server a is given twice/);
});

test('mcp_servers never reaches the engine config', () => {
  const config = buildConfig({ mcp_servers: { x: { command: 'y' } }, tools: [] }, { writable: false, home: false });
  assert.equal('mcp_servers' in config, false);
  assert.deepEqual(config.tools, []);
});
