// SPDX-License-Identifier: MIT
// The secrets configured for an MCP server never get past the package (docs/mcp.md, "Secrets"):
// a hostile server (tests/mcp/secret_echo_server.mjs) echoes the credentials it was given — the
// env secret over stdio, the bearer token and X-Api-Key over streamable HTTP — in its tool
// names, descriptions, schemas, results (plain, JSON-escaped, percent-encoded), isError results,
// JSON-RPC errors and stderr. Through connectMcp and McpToolSet, none of it survives: not one
// run of 6 characters of a secret appears in the tools array, an output, an error or a stderr
// line. McpToolSet's `secrets` option does the same for any client.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { McpToolSet, connectMcp } from 'agentctx';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const HOSTILE = join(REPO, 'tests/mcp/secret_echo_server.mjs');
const node = process.execPath;

// Characters JSON and URLs escape, around a distinctive core.
const ENV_SECRET = 'env-7Qx9Zr2Lm4Vb8Np1"\\/end';
const TOKEN = 'tok-K3w8Hd5Yq1Tc6Rf0/+=';
const API_KEY = 'key-P4n7Gs2Jx9Lb5Wm3';

/** Every run of 6 characters of `secret` (a leak of part of it is a leak). */
function fragments(secret) {
  const out = [];
  for (let i = 0; i + 6 <= secret.length; i += 1) out.push(secret.slice(i, i + 6));
  return out;
}

function assertNoSecret(text, secrets, where) {
  for (const secret of secrets) {
    for (const part of fragments(secret)) {
      // `-end`, `/+=` and the like are not distinctive: look only at runs with a letter and a digit.
      if (!/[A-Za-z]/.test(part) || !/\d/.test(part)) continue;
      assert.ok(!text.includes(part), `${where}: \`${part}\` of a secret leaked in ${text.slice(0, 400)}`);
    }
  }
}

const callOf = (server, tool, args = '{}') => ({ type: 'tool_call', call_id: `c-${Math.random()}`, name: `mcp__${server}__${tool}`, server, tool, arguments: args });

/** Calls every leaking tool; returns the texts that came out (outputs as JSON). */
async function everything(set, server) {
  const texts = [JSON.stringify(set.sessionTools()), JSON.stringify(set.serverTools(server))];
  for (const tool of ['leak_text', 'leak_error', 'leak_throw']) {
    const output = await set.callTool(callOf(server, tool));
    texts.push(JSON.stringify(output));
  }
  return texts;
}

test('stdio: an env secret echoed in names, descriptions, schemas, results, errors and stderr is redacted', async () => {
  const stderr = [];
  const exits = [];
  const connection = await connectMcp('hostile', {
    command: node, args: [HOSTILE, '--secret-env', 'HOSTILE_API_TOKEN'], env: { HOSTILE_API_TOKEN: ENV_SECRET, LOG_LEVEL: 'warn' },
  }, { onStderr: (line) => stderr.push(line), onExit: (e) => exits.push(e.detail) });
  after(() => connection.close());
  const set = new McpToolSet();
  set.addServer('hostile', connection);
  await set.refresh();
  const texts = await everything(set, 'hostile');
  // The secret was really there to hide: the redacted spellings show where.
  assert.match(texts[2], /plain: \*\*\*; escaped: \*\*\*; json: \[\\"\*\*\*\\"\]/);
  assert.match(texts[2], /https:\/\/example\.invalid\/\*\*\*/, 'the percent-encoded spelling too');
  assert.match(texts[3], /denied for \*\*\*/);
  assert.match(texts[4], /refused with credentials \*\*\*/);
  assert.ok(set.sessionTools().some((t) => t.name === 'leak____'), 'the tool named after the secret');
  assert.ok(set.sessionTools().every((t) => JSON.stringify(t.parameters).includes('p_***')), 'schema keys');
  // Its stderr and its exit: a restart note carries the stderr tail.
  texts.push(JSON.stringify(await set.callTool(callOf('hostile', 'leak_exit'))));
  await new Promise((r) => setTimeout(r, 300));
  texts.push(JSON.stringify(await set.callTool(callOf('hostile', 'pid'))));
  texts.push(...stderr, ...exits);
  assert.ok(stderr.some((l) => l.includes('started with ***')), stderr.join('\n'));
  for (const [i, text] of texts.entries()) assertNoSecret(text, [ENV_SECRET], `text ${i}`);
});

test('HTTP: a bearer token and a header value echoed back are redacted the same way', async () => {
  const child = spawn(node, [HOSTILE, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  after(() => child.kill());
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the server exited ${code}`)));
  });
  process.env.HOSTILE_MCP_TOKEN = TOKEN;
  after(() => { delete process.env.HOSTILE_MCP_TOKEN; });
  const connection = await connectMcp('remote', { url, headers: { 'X-Api-Key': API_KEY }, bearer_token_env_var: 'HOSTILE_MCP_TOKEN' });
  after(() => connection.close());
  const set = new McpToolSet();
  set.addServer('remote', connection);
  await set.refresh();
  const texts = await everything(set, 'remote');
  assert.match(texts[2], /plain: \*\*\* \/ \*\*\*; escaped: \*\*\* \/ \*\*\*/);
  assert.match(texts[4], /refused with credentials \*\*\* \/ \*\*\*/);
  for (const [i, text] of texts.entries()) assertNoSecret(text, [TOKEN, API_KEY], `text ${i}`);
});

test('McpToolSet `secrets`: any client’s listings, results and errors are redacted; short values only in errors', async () => {
  const secret = 'sk-live-5Fh2Kd8Lq3';
  const escapedSecret = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const client = {
    async listTools() {
      return { tools: [{ name: 'echo', description: `echoes ${secret} and abc12`, inputSchema: { type: 'object', properties: { [secret]: { type: 'string' } } } }] };
    },
    async callTool({ arguments: args }) {
      if (args.fail) throw new Error(`bad credentials ${secret} / abc12`);
      return { content: [{ type: 'text', text: `${secret} ${escapedSecret} ${encodeURIComponent(secret)} abc12` }], isError: args.error === true };
    },
  };
  const set = new McpToolSet();
  set.addServer('s', client, { secrets: [secret, 'abc12'] });
  await set.refresh();
  const [tool] = set.sessionTools();
  assert.equal(tool.description, 'echoes *** and abc12', 'a value under 8 characters is not blanked out of content');
  assert.deepEqual(Object.keys(tool.parameters.properties), ['***']);
  assert.equal(await set.callTool(callOf('s', 'echo')), '*** *** *** abc12');
  assert.equal(await set.callTool(callOf('s', 'echo', '{"error":true}')), 'error: MCP tool `echo` of server `s` failed:\n*** *** *** abc12');
  assert.equal(await set.callTool(callOf('s', 'echo', '{"fail":true}')), 'error: MCP tool `echo` of server `s` failed: bad credentials *** / ***',
    'an error message hides every configured value');
  // Without `secrets` the same client is passed through untouched (the redaction is what changed it).
  const plain = new McpToolSet();
  plain.addServer('s', client);
  await plain.refresh();
  assert.match(String(await plain.callTool(callOf('s', 'echo'))), /sk-live-5Fh2Kd8Lq3/);
});
