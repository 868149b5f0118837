// SPDX-License-Identifier: MIT
// Providers beyond Responses over real HTTP: `agentctx serve-mock` answers
// /v1/chat/completions and /v1/messages, the official SDKs (`openai` chat.completions with
// streamed usage, `@anthropic-ai/sdk` messages.stream().finalMessage()) read its answers, and CLI
// sessions on each provider keep their cache properties: every Chat body extends the previous
// one, every Anthropic request carries 1–4 breakpoints and reads the cache from the second on.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { loadHost, runCli, startServeMock, tempTree } from './helpers.mjs';

await loadHost();

let child;
let baseURL;
before(async () => {
  ({ child, baseURL } = await startServeMock());
});
after(() => child?.kill('SIGTERM'));

// A prompt past the caches' 1024-token minimums.
const LONG = 'You are a careful assistant. '.repeat(200);

describe('the openai SDK on /v1/chat/completions', () => {
  test('stream:true with include_usage yields chunks, text and a final usage chunk', async () => {
    const client = new OpenAI({ apiKey: 'sk-test-mock', baseURL, maxRetries: 0 });
    const messages = [{ role: 'system', content: LONG }, { role: 'user', content: 'Say hello' }];
    const read = async () => {
      const stream = await client.chat.completions.create({
        model: 'mock-1', messages, stream: true, stream_options: { include_usage: true },
      });
      let text = '';
      let usage;
      let finish;
      for await (const chunk of stream) {
        assert.equal(chunk.object, 'chat.completion.chunk');
        text += chunk.choices[0]?.delta?.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      return { text, usage, finish };
    };
    const first = await read();
    assert.equal(first.text, 'Mock reply to: Say hello');
    assert.equal(first.finish, 'stop');
    assert.ok(first.usage.prompt_tokens > 1024);
    assert.equal(first.usage.prompt_tokens_details.cached_tokens, 0);
    const second = await read();
    assert.ok(second.usage.prompt_tokens_details.cached_tokens >= 1024, JSON.stringify(second.usage));
  });

  test('tools: the mock calls a function the request offers; non-streaming answers one object', async () => {
    const client = new OpenAI({ apiKey: 'sk-test-mock', baseURL, maxRetries: 0 });
    const tools = [{ type: 'function', function: { name: 'read_file', description: 'Reads.', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
    const r = await client.chat.completions.create({ model: 'mock-1', messages: [{ role: 'user', content: 'Read src/main.rs' }], tools });
    assert.equal(r.object, 'chat.completion');
    assert.equal(r.choices[0].finish_reason, 'tool_calls');
    const call = r.choices[0].message.tool_calls[0];
    assert.equal(call.function.name, 'read_file');
    assert.deepEqual(JSON.parse(call.function.arguments), { path: 'src/main.rs' });
    const after = await client.chat.completions.create({
      model: 'mock-1', tools,
      messages: [{ role: 'user', content: 'Read src/main.rs' }, r.choices[0].message,
        { role: 'tool', tool_call_id: call.id, content: 'L1: fn main() {}' }],
    });
    assert.equal(after.choices[0].message.content, 'Read src/main.rs: 1 line.');
  });
});

describe('the @anthropic-ai/sdk on /v1/messages', () => {
  const client = () => new Anthropic({ apiKey: 'sk-ant-test', baseURL: baseURL.replace(/\/v1$/, ''), maxRetries: 0 });

  test('messages.stream().finalMessage() assembles text and cache usage; the second request reads', async () => {
    const request = {
      model: 'claude-mock', max_tokens: 256,
      system: [{ type: 'text', text: LONG, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'Say hello' }],
    };
    const first = await client().messages.stream(request).finalMessage();
    assert.match(first.id, /^msg_[0-9a-f]{12}$/);
    assert.equal(first.role, 'assistant');
    assert.equal(first.stop_reason, 'end_turn');
    assert.equal(first.content[0].type, 'text');
    assert.equal(first.content[0].text, 'Mock reply to: Say hello');
    assert.equal(first.usage.cache_read_input_tokens, 0);
    assert.ok(first.usage.cache_creation_input_tokens >= 1024, JSON.stringify(first.usage));
    assert.ok(first.usage.output_tokens > 0);
    const second = await client().messages.stream(request).finalMessage();
    assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
    assert.equal(second.usage.cache_creation_input_tokens, 0);
  });

  test('tool_use blocks carry the parsed input; errors arrive typed', async () => {
    const tools = [{ name: 'read_file', description: 'Reads.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];
    const m = await client().messages.stream({ model: 'claude-mock', max_tokens: 256, tools, messages: [{ role: 'user', content: 'Read src/main.rs' }] }).finalMessage();
    assert.equal(m.stop_reason, 'tool_use');
    const use = m.content.find((b) => b.type === 'tool_use');
    assert.equal(use.name, 'read_file');
    assert.deepEqual(use.input, { path: 'src/main.rs' });
    const bad = await fetch(`${baseURL}/messages`, { method: 'POST', body: '{nope' });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(await bad.json()), ['type', 'error']);
    await assert.rejects(
      client().messages.create({ model: 'claude-mock', max_tokens: 1, messages: [1] }),
      (e) => e instanceof Anthropic.BadRequestError);
  });
});

describe('CLI sessions on each provider against serve-mock', () => {
  const tmp = tempTree({
    'ws/src/main.rs': 'fn main() {}\n',
    'ws/src/lib.rs': 'pub fn add() {}\n',
    'ws/README.md': '# demo\n',
  });
  after(() => tmp.cleanup());
  const ws = join(tmp.dir, 'ws');
  const script = join(tmp.dir, 'turns.jsonl');
  writeFileSync(script, [
    { submit: 'Please read src/main.rs and src/lib.rs.' },
    { submit: 'What is in src? #mock-list:src' },
    { submit: 'Thanks, that is all.' },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n');

  const session = async (provider) => {
    const dump = join(tmp.dir, `dump-${provider}`);
    const r = await runCli(['run', '--provider', provider, '--base-url', baseURL, '--model', 'mock-1', '--json',
      '--dump-requests', dump, '--script', script, '--workspace', ws, '--home', join(tmp.dir, `home-${provider}`)],
    { cwd: ws, env: { OPENAI_API_KEY: 'sk-secret-openai', ANTHROPIC_API_KEY: 'sk-secret-anthropic' }, timeoutMs: 60000 });
    assert.equal(r.code, 0, r.stderr);
    const bodies = readdirSync(dump).sort().map((f) => readFileSync(join(dump, f), 'utf8'));
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const usage = lines.filter((l) => l.type === 'event' && l.event.type === 'token_usage').map((l) => l.event);
    return { bodies, usage, stdout: r.stdout, stderr: r.stderr };
  };

  test('chat: every request body extends the previous one up to its last message', async () => {
    const { bodies, usage, stdout, stderr } = await session('chat');
    assert.ok(bodies.length >= 5, `${bodies.length} requests`);
    for (let i = 1; i < bodies.length; i++) {
      const prev = bodies[i - 1];
      const stable = prev.slice(0, prev.lastIndexOf('],"tools"'));
      assert.ok(bodies[i].startsWith(stable), `request ${i + 1} does not extend request ${i}`);
      assert.equal(JSON.parse(bodies[i]).stream_options.include_usage, true);
    }
    assert.equal(usage.length, bodies.length);
    for (const u of usage.slice(1)) assert.ok(u.cached_tokens > 0, JSON.stringify(u));
    assert.ok(!stdout.includes('sk-secret') && !stderr.includes('sk-secret'));
  });

  test('anthropic: 1–4 breakpoints per request, cache reads from the second request on', async () => {
    const { bodies, usage } = await session('anthropic');
    assert.ok(bodies.length >= 5, `${bodies.length} requests`);
    for (const body of bodies) {
      const marks = body.split('"cache_control"').length - 1;
      assert.ok(marks >= 1 && marks <= 4, `${marks} marks`);
      assert.ok(!body.includes('sk-secret'));
    }
    assert.equal(usage.length, bodies.length);
    assert.equal(usage[0].cached_tokens, 0);
    for (const u of usage.slice(1)) assert.ok(u.cached_tokens > 0, JSON.stringify(u));
  });

  test('replay of an anthropic session: Anthropic pricing from the recorded cache writes', async () => {
    // The rollout of the anthropic session above (a second run would read everything it wrote).
    const dir = join(tmp.dir, 'home-anthropic', 'sessions');
    const rollouts = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
    assert.equal(rollouts.length, 1, rollouts.join());
    const file = join(dir, rollouts[0]);
    const usage = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l))
      .filter((l) => l.payload?.type === 'token_count').map((l) => l.payload.info.last_token_usage);
    const json = await runCli(['replay', '--json', '--price-input', '3', file], { timeoutMs: 60000 });
    assert.equal(json.code, 0, json.stderr);
    const s = JSON.parse(json.stdout).summary;
    assert.equal(s.pricing, 'anthropic');
    assert.deepEqual(s.prices_per_million_usd, { input: 3, cached_input: 0.3, cache_write: 3.75, output: 10 });
    const writes = usage.reduce((a, u) => a + u.cache_creation_input_tokens, 0);
    assert.ok(writes > 0);
    assert.equal(s.cache_write_input_tokens, writes);
    assert.equal(Object.values(s.lost_tokens_by_cause).reduce((a, b) => a + b, 0), s.uncached_input_tokens);
    const exact = (s.cached_input_tokens * 0.3 + s.uncached_input_tokens * 3 + writes * 0.75 + s.output_tokens * 10) / 1e6;
    assert.ok(Math.abs(s.cost.total_usd - exact) < 1e-12, `${s.cost.total_usd} vs ${exact}`);
    const table = await runCli(['replay', '--price-input', '3', '--price-cache-write', '6', file], { timeoutMs: 60000 });
    assert.match(table.stdout, /at \$3 \/ \$0\.3 \/ \$6 \/ \$10 per million input \/ cache read \/ cache write \/ output \(Anthropic pricing/);
    const openai = await runCli(['replay', '--json', '--provider', 'responses', file], { timeoutMs: 60000 });
    assert.equal(JSON.parse(openai.stdout).summary.pricing, undefined);
    const bad = await runCli(['replay', '--price-input', '3', '--price-cache-write', '2', file], { timeoutMs: 60000 });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /prices\.cache_write. must be at least/);
  });

  test('chat.developer_role from --config: developer context goes out as system messages', async () => {
    const cfg = join(tmp.dir, 'chat-system.json');
    writeFileSync(cfg, JSON.stringify({ chat: { developer_role: 'system' } }));
    const roles = async (extra) => {
      const r = await runCli(['inspect', '--provider', 'chat', ...extra, '--workspace', ws, 'hello'], { cwd: ws });
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout).messages.map((m) => m.role);
    };
    const plain = await roles([]);
    assert.ok(plain.includes('developer'), plain.join());
    const renamed = await roles(['--config', cfg]);
    assert.ok(!renamed.includes('developer'), renamed.join());
    assert.deepEqual(renamed, plain.map((r) => (r === 'developer' ? 'system' : r)));
    writeFileSync(cfg, JSON.stringify({ chat: { developer_role: 'assistant' } }));
    const bad = await runCli(['inspect', '--provider', 'chat', '--config', cfg, '--workspace', ws, 'hello'], { cwd: ws });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /chat\.developer_role must be/);
  });

  test('inspect --format breakpoints explains the plan', async () => {
    const r = await runCli(['inspect', '--provider', 'anthropic', '--format', 'breakpoints', '--json', '--workspace', ws, 'hello'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout);
    assert.equal(plan.provider, 'anthropic');
    assert.deepEqual(plan.breakpoints.map((b) => b.at), ['tools', 'system', 'session_context', 'newest_item']);
    assert.ok(plan.breakpoints.some((b) => b.placed));
    const human = await runCli(['inspect', '--provider', 'anthropic', '--format', 'breakpoints', '--workspace', ws, 'hello'], { cwd: ws });
    assert.match(human.stdout, /^provider anthropic; cacheable minimum 1024 tokens\n/);
    assert.match(human.stdout, /mark newest_item \(message \d+\): newest_history_item/);
  });
});
