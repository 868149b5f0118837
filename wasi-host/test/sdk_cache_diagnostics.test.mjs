// SPDX-License-Identifier: MIT
// The official SDKs, pointed at `agentctx serve-mock`, receive the providers' cache diagnostics
// typed as the SDKs declare them:
//  - `openai@7`: a gpt-5.6 request naming an earlier response in
//    `prompt_cache_options.comparison_response_id` gets `prompt_cache_diagnostics` (cache_hit, or
//    cache_miss with its reason and token counts, comparison_response_not_found), and its usage
//    reports cache reads (`cached_tokens`) and writes (`cache_write_tokens`);
//  - `@anthropic-ai/sdk`: a request with `diagnostics.previous_message_id` gets
//    `diagnostics.cache_miss_reason` (null when nothing diverged), on the stable and the beta
//    Messages API (beta header `cache-diagnosis-2026-04-07`), streamed or not.
// The values the clients received are then type-checked with tsc against the SDKs' own response
// types (only the fields read here), so a value outside the SDKs' literal types fails.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { REPO, loadHost, startServeMock } from './helpers.mjs';

await loadHost();

let child;
let openai;
let anthropic;
before(async () => {
  let baseURL;
  ({ child, baseURL } = await startServeMock());
  openai = new OpenAI({ apiKey: 'sk-test-mock', baseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
});
after(() => child?.kill('SIGTERM'));

// What the clients received, for the type check at the end: [SDK type expression, value].
const received = [];

// A static prefix well past every provider's cacheable minimum (the mock counts bytes / 4).
const STATIC_TEXT = 'Project conventions: keep the prefix stable; append, never rewrite. '.repeat(150);
const LOOKUP = { type: 'function', name: 'lookup', description: 'Looks a word up.', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false };
const GREP = { type: 'function', name: 'grep', description: 'Searches files.', parameters: { type: 'object', properties: { pattern: { type: 'string' } } }, strict: false };

describe('openai@7 on /v1/responses with a gpt-5.6 slug', () => {
  const MODEL = 'gpt-5.6-mini';
  // The first request's body; the explicit breakpoint closes the static developer text, so the
  // requests below share a written prefix whatever the implicit breakpoint does.
  const first = {
    model: MODEL,
    tools: [LOOKUP],
    reasoning: { effort: 'low' },
    prompt_cache_options: { mode: 'implicit', ttl: '30m' },
    input: [
      { role: 'developer', content: [{ type: 'input_text', text: STATIC_TEXT, prompt_cache_breakpoint: { mode: 'explicit' } }] },
      { role: 'user', content: [{ type: 'input_text', text: 'What does the prefix rule say?' }] },
    ],
  };
  let a;
  let next; // the second request's body without its comparison
  let b;

  const usageOk = (r) => {
    const { input_tokens: input, input_tokens_details: details } = r.usage;
    assert.equal(typeof details.cached_tokens, 'number');
    assert.equal(typeof details.cache_write_tokens, 'number', `usage without cache_write_tokens: ${JSON.stringify(r.usage)}`);
    assert.ok(details.cached_tokens + details.cache_write_tokens <= input, JSON.stringify(r.usage));
    return details;
  };

  test('the first request: no diagnostics (none asked), the static prefix written', async () => {
    a = await openai.responses.create(first);
    assert.equal(a.status, 'completed');
    assert.equal(a.prompt_cache_diagnostics, undefined);
    const details = usageOk(a);
    assert.equal(details.cached_tokens, 0);
    assert.ok(details.cache_write_tokens >= STATIC_TEXT.length / 4 - 1, JSON.stringify(a.usage));
    received.push(['Pick<Response, "usage">', { usage: a.usage }]);
  });

  test('the same prefix extended, naming the first response: cache_hit and cache reads', async () => {
    next = { ...first, input: [...first.input, ...a.output, { role: 'user', content: [{ type: 'input_text', text: 'And the tools?' }] }] };
    b = await openai.responses.create({ ...next, prompt_cache_options: { ...first.prompt_cache_options, comparison_response_id: a.id } });
    assert.deepEqual(b.prompt_cache_diagnostics, { type: 'cache_hit' });
    const details = usageOk(b);
    assert.ok(details.cached_tokens >= STATIC_TEXT.length / 4 - 1, JSON.stringify(b.usage));
    received.push(['Pick<Response, "prompt_cache_diagnostics" | "usage">', { prompt_cache_diagnostics: b.prompt_cache_diagnostics, usage: b.usage }]);
  });

  test('a changed tool list: cache_miss tools_changed with its token counts, nothing read', async () => {
    const c = await openai.responses.create({ ...next, tools: [LOOKUP, GREP], prompt_cache_options: { ...first.prompt_cache_options, comparison_response_id: b.id } });
    const d = c.prompt_cache_diagnostics;
    assert.equal(d?.type, 'cache_miss', JSON.stringify(d));
    assert.equal(d.reason, 'tools_changed');
    assert.ok(d.cache_missed_tokens > 0 && d.cache_missed_tokens <= c.usage.input_tokens, JSON.stringify(d));
    assert.equal(typeof d.comparison_reusable_tokens, 'number');
    assert.equal(usageOk(c).cached_tokens, 0);
    received.push(['Pick<Response, "prompt_cache_diagnostics" | "usage">', { prompt_cache_diagnostics: d, usage: c.usage }]);
  });

  test('a changed reasoning effort (same text): cache_miss reasoning_effort_changed, streamed', async () => {
    const stream = openai.responses.stream({ ...next, reasoning: { effort: 'high' }, prompt_cache_options: { ...first.prompt_cache_options, comparison_response_id: b.id } });
    const c = await stream.finalResponse();
    const d = c.prompt_cache_diagnostics;
    assert.equal(d?.type, 'cache_miss', JSON.stringify(d));
    assert.equal(d.reason, 'reasoning_effort_changed');
    assert.ok(d.cache_missed_tokens > 0 && d.cache_missed_tokens <= c.usage.input_tokens, JSON.stringify(d));
    usageOk(c);
    received.push(['Pick<Response, "prompt_cache_diagnostics" | "usage">', { prompt_cache_diagnostics: d, usage: c.usage }]);
  });

  test('a settings miss reads nothing from the cache either', async () => {
    const c = await openai.responses.create({ ...next, reasoning: { effort: 'medium' }, prompt_cache_options: { ...first.prompt_cache_options, comparison_response_id: b.id } });
    assert.equal(c.prompt_cache_diagnostics?.reason, 'reasoning_effort_changed');
    assert.equal(c.usage.input_tokens_details.cached_tokens, 0);
  });

  test('an unknown comparison id: comparison_response_not_found, the request still answered', async () => {
    const c = await openai.responses.create({ ...next, prompt_cache_options: { ...first.prompt_cache_options, comparison_response_id: 'resp_000000000000' } });
    assert.equal(c.status, 'completed');
    assert.deepEqual(c.prompt_cache_diagnostics, { type: 'comparison_response_not_found' });
    received.push(['Pick<Response, "prompt_cache_diagnostics">', { prompt_cache_diagnostics: c.prompt_cache_diagnostics }]);
  });
});

describe('@anthropic-ai/sdk on /v1/messages', () => {
  const BETA = 'cache-diagnosis-2026-04-07';
  const first = {
    model: 'claude-sonnet-4-6',
    max_tokens: 256,
    tools: [{ name: 'lookup', description: 'Looks a word up.', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
    system: [{ type: 'text', text: STATIC_TEXT, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: 'What does the prefix rule say?' }],
  };
  let m1;
  let next;
  let m2;

  test('the first request opts in with previous_message_id null: diagnostics null, prefix written', async () => {
    m1 = await anthropic.beta.messages.create({ ...first, diagnostics: { previous_message_id: null }, betas: [BETA] });
    assert.match(m1.id, /^msg_/);
    assert.equal(m1.diagnostics, null);
    assert.ok(m1.usage.cache_creation_input_tokens >= STATIC_TEXT.length / 4 - 1, JSON.stringify(m1.usage));
    assert.equal(m1.usage.cache_read_input_tokens, 0);
    received.push(['Pick<BetaMessage, "diagnostics">', { diagnostics: m1.diagnostics }]);
  });

  test('the conversation extended, naming the first message: no divergence (null), cache reads', async () => {
    next = { ...first, messages: [...first.messages, { role: 'assistant', content: m1.content }, { role: 'user', content: 'And the tools?' }] };
    m2 = await anthropic.beta.messages.create({ ...next, diagnostics: { previous_message_id: m1.id }, betas: [BETA] });
    assert.equal(m2.diagnostics, null);
    assert.ok(m2.usage.cache_read_input_tokens >= STATIC_TEXT.length / 4 - 1, JSON.stringify(m2.usage));
  });

  test('a changed system prompt on the stable API: cache_miss_reason system_changed with tokens', async () => {
    const m3 = await anthropic.messages.create({ ...next, system: [{ ...first.system[0], text: `${STATIC_TEXT}Also: be brief.` }], diagnostics: { previous_message_id: m2.id } });
    const reason = m3.diagnostics?.cache_miss_reason;
    assert.equal(reason?.type, 'system_changed', JSON.stringify(m3.diagnostics));
    assert.ok(reason.cache_missed_input_tokens > 0, JSON.stringify(reason));
    assert.equal(m3.usage.cache_read_input_tokens, 0);
    received.push(['Pick<Message, "diagnostics">', { diagnostics: m3.diagnostics }]);
  });

  test('a changed tool list, streamed: the reason arrives with message_start', async () => {
    const tools = [...first.tools, { name: 'grep', description: 'Searches files.', input_schema: { type: 'object', properties: { pattern: { type: 'string' } } } }];
    const stream = anthropic.beta.messages.stream({ ...next, tools, diagnostics: { previous_message_id: m2.id }, betas: [BETA] });
    let started;
    stream.on('streamEvent', (e) => { if (e.type === 'message_start') started = e.message.diagnostics; });
    const m = await stream.finalMessage();
    assert.equal(started?.cache_miss_reason?.type, 'tools_changed', JSON.stringify(started));
    assert.deepEqual(m.diagnostics, started);
    assert.ok(m.diagnostics.cache_miss_reason.cache_missed_input_tokens > 0);
    received.push(['Pick<BetaMessage, "diagnostics">', { diagnostics: m.diagnostics }]);
  });

  test('an unknown previous message: previous_message_not_found, the request still answered', async () => {
    const m = await anthropic.beta.messages.create({ ...next, diagnostics: { previous_message_id: 'msg_000000000000' }, betas: [BETA] });
    assert.equal(m.stop_reason, 'end_turn');
    assert.deepEqual(m.diagnostics, { cache_miss_reason: { type: 'previous_message_not_found' } });
    received.push(['Pick<BetaMessage, "diagnostics">', { diagnostics: m.diagnostics }]);
  });
});

test('what the clients received type-checks against the SDKs\' response types', { timeout: 120000 }, async () => {
  assert.ok(received.length >= 7, `only ${received.length} responses recorded (an earlier test failed)`);
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-sdk-types-'));
  try {
    const source = [
      "import type { Response } from 'openai/resources/responses/responses';",
      "import type { Message } from '@anthropic-ai/sdk/resources/messages/messages';",
      "import type { BetaMessage } from '@anthropic-ai/sdk/resources/beta/messages/messages';",
      ...received.map(([type, value], i) => `export const r${i} = ${JSON.stringify(value)} satisfies ${type};`),
    ].join('\n');
    writeFileSync(join(dir, 'received.ts'), `${source}\n`);
    const modules = join(REPO, 'node_modules');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: [],
        strict: true, noEmit: true, skipLibCheck: true,
        paths: { 'openai/*': [join(modules, 'openai/*')], '@anthropic-ai/sdk/*': [join(modules, '@anthropic-ai/sdk/*')] },
      },
      files: ['received.ts'],
    }));
    const tsc = join(modules, 'typescript/bin/tsc');
    const r = await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]).catch((e) => e);
    assert.equal(r.code ?? 0, 0, `${r.stdout}${r.stderr}\n${source}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
