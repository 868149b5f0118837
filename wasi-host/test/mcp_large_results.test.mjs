// SPDX-License-Identifier: MIT
// Large results from a stdio MCP server (docs/mcp.md, "Limits"): the MCP SDK's stdio reader
// gives up past 10 MiB and closes the connection, so a large result looked like the server
// crashing, and after two its tools were gone for the session. Now a result up to 32 MiB is read
// (in linear work) and cut on record like any tool output (`model.truncation`); a larger one
// makes that one call answer an error saying what happened (its size and the limit) while the
// server keeps running: the same process answers the next calls, no restart, no failure.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const HOSTILE = join(REPO, 'tests/mcp/secret_echo_server.mjs');

test('Regression a stdio result over 10 MiB is cut on record; one over 32 MiB is an error naming the limit; the server lives on', async () => {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const dir = tree.dir;
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mcp_servers: { h: { command: process.execPath, args: [HOSTILE] } } }));
  const call = (tool, args) => `#mock-call:mcp__h__${tool}${args === undefined ? '' : `=${JSON.stringify(args)}`}`;
  const prompt = (calls) => calls.join('\n');
  const script = [
    { submit: prompt([call('pid'), call('big', { bytes: 12_000_000 })]) },
    { submit: prompt([call('big', { bytes: 40_000_000 })]) },
    { submit: prompt([call('big', { bytes: 40_000_000 })]) },
    { submit: prompt([call('pid')]) },
  ];
  writeFileSync(join(dir, 'script.jsonl'), script.map((s) => JSON.stringify(s)).join('\n') + '\n');
  const r = await runCli(['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), '--script', join(dir, 'script.jsonl'),
    '--json', '--approval', 'never', '--config', join(dir, 'config.json')], { cwd: dir, timeoutMs: 120000 });
  assert.equal(r.code, 0, r.stderr.slice(0, 2000));
  const lines = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  const outputs = lines.filter((l) => l.type === 'event' && l.event.type === 'item_done' && l.event.item.type === 'function_call_output')
    .map((l) => l.event.item.output);
  assert.equal(outputs.length, 5, r.stdout.slice(0, 2000));
  const [pid, big, over1, over2, pidAfter] = outputs;
  assert.match(pid, /^\d+$/);
  assert.ok(big.length < 20_000, `cut on record (${big.length} characters)`);
  assert.match(big, /^x+…\d+ chars truncated…x+$/);
  for (const over of [over1, over2]) {
    assert.match(over, /^error: MCP tool `big` of server `h` failed: .*the server's answer was 400000\d\d bytes, over the limit of 33554432 bytes for one MCP message \(a stdio line\); it was dropped, and the server keeps running$/);
  }
  assert.equal(pidAfter, pid, 'the same process answered: it was never restarted');
  const trouble = lines.filter((l) => l.type === 'host' && l.event.type === 'mcp_server' && l.event.state !== 'ready');
  assert.deepEqual(trouble, [], 'no exit, restart or failure was reported');
});
