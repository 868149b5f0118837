// SPDX-License-Identifier: MIT
// The playground in Debian's Chromium, one browser context for the whole file:
// load; a message with a tool call and an answer; an AGENTS.md edit in probe mode (replacement
// notice appended, prefix intact); a cwd change (environment update); the pretend MCP server
// toggled under `apply` (tools_changed break) and `defer` (no break, <tools> notice); a forced
// compaction (marker on the chart, history_rewritten_by_compaction next); rollout
// export -> reload -> import (same chart); an OpenAI key (fetch intercepted) that is sent as a
// header and found nowhere else; an Anthropic session's cost view (Anthropic's cache prices,
// labelled; the same figure from the engine and after export -> import); zero console errors or
// warnings and no other request leaving the local server. Screenshots of the main views go to
// e2e/out/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium_launcher.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'wasm/package.json'), 'utf8'));
const outDir = join(repo, 'e2e/out');
const REPLACEMENT_NOTICE = 'These AGENTS.md instructions replace all previously provided AGENTS.md instructions.';

/** Runs `action` and waits for the turn it starts to end; returns the turn note's text. */
async function turn(page, action) {
  const before = await page.locator('#chat .note.turn').count();
  await action();
  await page.locator('#chat .note.turn').nth(before).waitFor({ timeout: 30000 });
  await page.waitForSelector('#send:not([disabled])');
  return page.locator('#chat .note.turn').nth(before).textContent();
}

/** Sends a message and waits for its turn to end. */
function send(page, text) {
  return turn(page, async () => {
    await page.fill('#composer-input', text);
    await page.click('#send');
  });
}

async function tab(page, id) {
  await page.click(`#${id}`);
  await page.waitForSelector(`#${id}[aria-selected="true"]`);
}

async function lastRequests(page, n) {
  return page.evaluate((k) => window.playground.requests.slice(-k).map((r) => ({ id: r.id, body: r.body, report: r.report })), n);
}

async function shot(page, name) {
  mkdirSync(outDir, { recursive: true });
  await page.screenshot({ path: join(outDir, `${name}.png`) });
}

test('the CSP allows the import map by its hash', () => {
  const html = readFileSync(join(repo, 'web/index.html'), 'utf8');
  const map = html.match(/<script type="importmap">([\s\S]*?)<\/script>/)[1];
  const hash = createHash('sha256').update(map).digest('base64');
  assert.ok(html.includes(`'sha256-${hash}'`), `CSP lacks 'sha256-${hash}'`);
  assert.deepEqual(JSON.parse(map), { imports: { agentctx: '/agentctx/index.js' } });
});

test('playground flows in Chromium', { timeout: 420000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')),
    'wasm/dist is not built: run cmake --workflow --preset wasm && node scripts/assemble_package.mjs');
  const downloads = mkdtempSync(join(tmpdir(), 'playground-downloads-'));
  let server;
  let browser;
  try {
    server = await startServer({ port: 0 }); // inside try: a failed launch must not leak it
    browser = await launchChromium({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    const { context } = browser;
    const page = context.pages()[0] ?? (await context.newPage());
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
    const foreign = [];
    page.on('request', (r) => { if (!r.url().startsWith(server.url) && !r.url().startsWith('blob:')) foreign.push(r.url()); });

    const load = async () => {
      await page.goto(server.url, { waitUntil: 'load' });
      await page.waitForSelector('body[data-state]', { state: 'attached', timeout: 30000 }).catch((cause) => {
        throw new Error(`the page never finished loading:\n${problems.join('\n')}`, { cause });
      });
      assert.equal(await page.getAttribute('body', 'data-state'), 'ready', await page.textContent('#status'));
    };

    await t.test('load', async () => {
      await load();
      assert.equal((await page.textContent('#engine-version')).trim(), pkg.version);
      assert.equal(await page.textContent('#model-source'), 'mock model (offline)');
      assert.ok(await page.locator('#file-tree button[data-path="/repo/services/api/AGENTS.md"]').count());
      // Every form control has an accessible name; images have text alternatives.
      const unnamed = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
        .filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || e.textContent.trim() || e.type === 'file'))
        .map((e) => e.outerHTML));
      assert.deepEqual(unnamed, []);
      await shot(page, 'load');
    });

    await t.test('a message gets a tool call and an answer', async () => {
      assert.match(await send(page, 'Please read src/main.rs.'), /turn-1 completed · 2 requests/);
      const call = page.locator('#chat details.tool-call[data-name="read_file"]');
      assert.equal(await call.count(), 1);
      assert.match(await call.locator('.args').textContent(), /"path":"src\/main.rs"/);
      assert.match(await call.locator('.tool-output').textContent(), /^L1: mod errors;/);
      assert.equal(await page.locator('#chat .msg.assistant .text').last().textContent(), '[api] Read src/main.rs: 7 lines.');
      assert.equal(await page.getAttribute('#request-report', 'data-request'), 'req-2');
      await call.locator('summary').click();
      await shot(page, 'chat');
    });

    await t.test('an AGENTS.md edit in probe mode is appended as a replacement, prefix intact', async () => {
      await page.check('input[name="refresh"][value="probe"]');
      await send(page, 'Noted.'); // the agents_md config is part of the cache key: this step reloads once
      await page.click('#file-tree button[data-path="/repo/services/api/AGENTS.md"]');
      const content = await page.inputValue('#file-content');
      await page.fill('#file-content', content.replace('reply prefix: [api]', 'reply prefix: [api v2]'));
      await page.click('#file-save');
      await tab(page, 'tab-agents');
      await page.selectOption('#agents-file', '/repo/services/api/AGENTS.md');
      assert.equal(await page.getAttribute('#agents-why', 'data-verdict'), 'not visible yet');
      assert.match(await page.textContent('#agents-why'), /refresh is "probe"/);

      await send(page, 'hello again');
      assert.equal(await page.locator('#chat .msg.assistant .text').last().textContent(), '[api v2] Mock reply to: hello again');
      assert.equal(await page.getAttribute('#agents-state', 'data-cache'), 'probe_changed');
      assert.equal(await page.getAttribute('#agents-why', 'data-verdict'), 'visible');
      await shot(page, 'agents');

      await tab(page, 'tab-inspector');
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'none');
      assert.match(await page.textContent('#request-report .ok'), /Prefix intact/);
      const fresh = await page.textContent('#request-body mark.fresh');
      assert.ok(fresh.includes(REPLACEMENT_NOTICE), fresh);
      assert.ok(fresh.includes('reply prefix: [api v2]'));
      const [previous, current] = await lastRequests(page, 2);
      const inputEnd = previous.body.indexOf('],"tools":');
      assert.ok(Number(await page.getAttribute('#request-body', 'data-reused')) >= inputEnd);
      assert.ok(current.body.startsWith(previous.body.slice(0, inputEnd)));
      assert.equal(current.report.break, null);
      assert.equal(current.report.reuse_bp, current.report.max_reuse_bp);
      await shot(page, 'inspector');
    });

    await t.test('changing cwd updates the environment', async () => {
      await page.fill('input[name="cwd"]', '/repo/services/web');
      await page.locator('input[name="cwd"]').dispatchEvent('change');
      assert.match(await page.textContent('#settings-note'), /"cwd":"\/repo\/services\/web"/);
      await send(page, 'Where am I?');
      assert.equal(await page.locator('#chat .msg.assistant .text').last().textContent(), '[web] Mock reply to: Where am I?');
      const fresh = await page.textContent('#request-body mark.fresh');
      assert.ok(fresh.includes('<cwd>/repo/services/web</cwd>'), fresh);
      assert.ok(fresh.includes(REPLACEMENT_NOTICE));
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'none');
      await tab(page, 'tab-world');
      const last = page.locator('#world-timeline li').last();
      assert.equal(await last.getAttribute('class'), 'patch');
      assert.match(await last.textContent(), /"cwd": "\/repo\/services\/web"/);
      await shot(page, 'world-state');
    });

    await t.test('the MCP server under apply breaks the cache (tools_changed), under defer it does not', async () => {
      await tab(page, 'tab-inspector');
      await page.check('input[name="mcp"]');
      await send(page, 'Any open issues?');
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'tools_changed');
      assert.match(await page.textContent('#request-report .break'), /tools array changed/);
      assert.ok((await page.textContent('#request-body')).includes('"name":"mcp__tracker__search_issues"'));

      await page.check('input[name="tool_policy"][value="defer"]');
      await page.uncheck('input[name="mcp"]');
      await send(page, 'Thanks.');
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'none');
      const fresh = await page.textContent('#request-body mark.fresh');
      assert.ok(fresh.includes('<tools>'), fresh);
      assert.ok(fresh.includes('The following tools are no longer available. Do not call them:'));
      assert.ok(fresh.includes('- mcp__tracker__search_issues'));
      // Frozen: the advertised array still lists the withdrawn tools, unchanged, so reused.
      const reused = await page.$$eval('#request-body span.reused', (spans) => spans.map((s) => s.textContent).join(''));
      assert.ok(reused.includes('"name":"mcp__tracker__search_issues"'));
      await tab(page, 'tab-cache');
      assert.match(await page.textContent('#cache-summary'), /tools_changed × 1/);
      assert.match(await page.textContent('#cost-live'), /^Estimated cost: \$/);
      await shot(page, 'cache');
    });

    await t.test('force a compaction', async () => {
      await tab(page, 'tab-inspector');
      assert.match(await turn(page, () => page.click('#compact')), /completed · 1 request$/);
      assert.match(await page.locator('#chat .note.compaction').last().textContent(), /^compaction completed: \d+ → \d+ tokens$/);
      assert.match(await page.locator('#request-select option:checked').textContent(), /· compact/);
      assert.ok((await page.textContent('#request-body mark.fresh')).includes('You are performing a CONTEXT CHECKPOINT COMPACTION'));
      await send(page, 'After the compaction.');
      assert.equal(await page.locator('#chat .msg.assistant .text').last().textContent(), '[web] Mock reply to: After the compaction.');
      // The compaction released the `defer` tool freeze: the withdrawn tracker tools leave the
      // array now; the compaction is the cause, so the break is reported as the compaction's.
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'history_rewritten_by_compaction');
      assert.ok(!(await page.textContent('#request-body')).includes('mcp__tracker__'));
      await tab(page, 'tab-cache');
      const bars = JSON.parse(await page.getAttribute('#chart-live figure', 'data-series')).length;
      assert.equal(await page.getAttribute('#chart-live figure', 'data-markers'), `[${bars - 1}]`);
      assert.match(await page.textContent('#cost-live'), /Includes 1 compaction request/);
      await shot(page, 'compaction');
    });

    await t.test('export a rollout, reload, import it: the same chart', async () => {
      const series = await page.getAttribute('#chart-live figure', 'data-series');
      const markers = await page.getAttribute('#chart-live figure', 'data-markers');
      const cost = (await page.textContent('#cost-live')).replace(/ Includes .*$/, '');
      assert.ok(JSON.parse(series).length >= 6);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-rollout')]);
      const file = join(downloads, download.suggestedFilename());
      await download.saveAs(file);
      const lines = readFileSync(file, 'utf8').split('\n');
      assert.equal(lines.at(-1), '');
      assert.equal(JSON.parse(lines[0]).type, 'session_meta');

      await load();
      await page.setInputFiles('#import-rollout', file);
      await page.waitForSelector('#replay:not([hidden])');
      assert.equal(await page.getAttribute('#tab-replay', 'aria-selected'), 'true');
      assert.equal(await page.getAttribute('#chart-replay figure', 'data-series'), series);
      assert.equal(await page.getAttribute('#chart-replay figure', 'data-markers'), markers);
      // Each request counted once, compaction requests included (costed, not drawn) as live.
      assert.equal((await page.textContent('#cost-replay')).replace(/ Includes .*$/, ''), cost);
      assert.match(await page.textContent('#cost-replay'), /Includes 1 usage-only request/);
      // Rollouts carry no instructions or tools (docs/replay.md): the replay sees the same usage.
      const n = JSON.parse(series).length;
      assert.match(await page.textContent('#replay-summary'), new RegExp(`${n} with reported usage`));
      // agentctx's token_count lines carry each response's usage, not a running total.
      assert.match(await page.textContent('#replay-summary'), /rollout total\(not recorded\)/);
      // Every uncached token has a cause: the table's tokens add up to its caption's total.
      const causes = await page.$$eval('#replay-causes tbody tr', (rows) => rows.map((r) => [r.dataset.cause, Number(r.cells[2].textContent.replace(/,/g, ''))]));
      const uncached = Number((await page.textContent('#replay-causes caption')).match(/([\d,]+) tokens/)[1].replace(/,/g, ''));
      assert.ok(causes.some(([c]) => c === 'new_input'));
      assert.equal(causes.reduce((a, [, t]) => a + t, 0), uncached);
      assert.equal(JSON.parse(await page.getAttribute('#chart-replay figure', 'data-causes')).length, n);
      // The diff view: the first request has nothing before it; a later one keeps a prefix.
      await page.selectOption('#replay-request', '0');
      assert.match(await page.textContent('#replay-diff'), /the first request/);
      await page.selectOption('#replay-request', '1');
      assert.match(await page.textContent('#replay-diff'), /req-\d+ against req-\d+: \d+ items kept/);
      assert.ok(Number(await page.getAttribute('#replay-diff .diff', 'data-added')) > 0);
      await shot(page, 'replay');
      // A Codex 0.169 rollout (hand-made): usage from token_usage_record lines adds up to the
      // rollout's own total; the model switch is named; the diff shows the new model.
      await page.setInputFiles('#import-rollout', join(repo, 'tests/fixtures/rollouts/codex_0169_layout.jsonl'));
      await page.waitForFunction(() => document.querySelector('#replay-title').textContent.includes('codex_0169_layout'));
      assert.match(await page.textContent('#replay-summary'), /matches the sum of the requests/);
      assert.equal(await page.getAttribute('#chart-replay figure', 'data-series'), '[[3000,0],[3100,2944],[3150,0]]');
      assert.ok(await page.isVisible('#replay-causes tr[data-cause="model_changed"]'));
      assert.equal(await page.inputValue('#replay-request'), '2');  // the worst request first
      assert.match(await page.textContent('#replay-diff'), /Model gpt-5\.5 → gpt-5\.5-mini/);
      await shot(page, 'replay-codex');
    });

    await t.test('an OpenAI key switches to fetch + SSE and stays in memory only', async () => {
      const key = 'sk-test-playground-0123456789';
      const seen = [];
      const sse = [
        { type: 'response.created', response: { id: 'resp_1' } },
        { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hello from ' },
        { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'the API.' },
        { type: 'response.output_item.done', output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Hello from the API.' }] } },
        { type: 'response.completed', response: { id: 'resp_1', usage: { input_tokens: 2000, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 5, total_tokens: 2005 } } },
      ].map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
      await page.route('https://api.openai.com/**', (route) => {
        seen.push({ url: route.request().url(), auth: route.request().headers().authorization, body: route.request().postData() });
        return route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }, body: sse });
      });
      await page.fill('#api-key', key);
      assert.match(await page.textContent('#model-source'), /OpenAI Responses API/);
      await page.fill('input[name="model"]', 'gpt-test');
      await page.locator('input[name="model"]').dispatchEvent('change');
      await send(page, 'Say hello.');
      assert.equal(await page.locator('#chat .msg.assistant .text').last().textContent(), 'Hello from the API.');
      assert.equal(seen.length, 1);
      assert.equal(seen[0].url, 'https://api.openai.com/v1/responses');
      assert.equal(seen[0].auth, `Bearer ${key}`);
      const requests = await lastRequests(page, 1);
      assert.equal(seen[0].body, requests[0].body); // sent unchanged
      assert.ok(requests[0].body.startsWith('{"model":"gpt-test",'));

      const stored = await page.evaluate(async () => ({
        local: Object.keys(localStorage).length, session: Object.keys(sessionStorage).length, cookies: document.cookie,
        databases: (await indexedDB.databases()).length,
      }));
      assert.deepEqual(stored, { local: 0, session: 0, cookies: '', databases: 0 });
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-rollout')]);
      const file = join(downloads, 'with-key.jsonl');
      await download.saveAs(file);
      assert.ok(!readFileSync(file, 'utf8').includes(key));
      assert.ok(!(await page.content()).includes(key));
      await page.fill('#api-key', '');
      await page.unroute('https://api.openai.com/**');
      foreign.splice(0, foreign.length, ...foreign.filter((u) => !u.startsWith('https://api.openai.com/')));
    });

    await t.test('the enum selects offer exactly the engine\'s values, and a choice becomes an update', async () => {
      const options = (name) => page.$$eval(`select[name="${name}"] option`, (os) => os.map((o) => o.value));
      assert.deepEqual(await options('sandbox'), ['read-only', 'workspace-write', 'danger-full-access']);
      assert.deepEqual(await options('approval'), ['never', 'on-request', 'on-failure', 'unless-trusted']);
      assert.deepEqual(await options('trust'), ['trusted', 'untrusted']);
      const before = await page.inputValue('select[name="sandbox"]');
      await page.selectOption('select[name="sandbox"]', 'read-only');
      assert.match(await page.textContent('#settings-note'), /"sandbox":\{"mode":"read-only"\}/);
      await page.selectOption('select[name="sandbox"]', before);
    });

    await t.test('the provider selector: the mock answers Anthropic; a key sends it to the Messages API', async () => {
      await page.selectOption('select[name="provider"]', 'anthropic');
      assert.match(await page.textContent('#settings-note'), /"provider":"anthropic"/);
      await send(page, 'Hello Claude.');
      assert.match(await page.locator('#chat .msg.assistant .text').last().textContent(), /Mock reply to: Hello Claude\.$/);
      let [request] = await lastRequests(page, 1);
      const body = JSON.parse(request.body);
      assert.equal(body.max_tokens, 8192);
      assert.ok(Array.isArray(body.messages) && body.input === undefined);
      const marks = request.body.split('"cache_control"').length - 1;
      assert.ok(marks >= 1 && marks <= 4, `${marks} marks`);
      assert.ok(request.report.breakpoints.some((b) => b.placed));

      const key = 'sk-ant-test-playground-0123456789';
      const seen = [];
      const events = [
        { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 10, cache_read_input_tokens: 2048, cache_creation_input_tokens: 0, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello from Claude.' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
        { type: 'message_stop' },
      ].map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
      await page.route('https://api.anthropic.com/**', (route) => {
        const h = route.request().headers();
        seen.push({ url: route.request().url(), key: h['x-api-key'], version: h['anthropic-version'], auth: h.authorization });
        return route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }, body: events });
      });
      await page.fill('#api-key', key);
      assert.match(await page.textContent('#model-source'), /Anthropic Messages API/);
      await send(page, 'Say hello.');
      assert.equal(await page.locator('#chat .msg.assistant .text').last().textContent(), 'Hello from Claude.');
      assert.deepEqual(seen, [{ url: 'https://api.anthropic.com/v1/messages', key, version: '2023-06-01', auth: undefined }]);
      assert.ok(!(await page.content()).includes(key));
      await page.fill('#api-key', '');
      await page.unroute('https://api.anthropic.com/**');
      foreign.splice(0, foreign.length, ...foreign.filter((u) => !u.startsWith('https://api.anthropic.com/')));
      await page.selectOption('select[name="provider"]', 'responses');
    });

    await t.test('the cost view prices an Anthropic session by Anthropic\'s rule, live and replayed', async () => {
      await page.selectOption('select[name="provider"]', 'anthropic');
      await page.click('#new-session');  // a session of one provider: one rule for every request
      await page.waitForFunction(() => window.playground.requests.length === 0);
      assert.match(await send(page, 'Please read src/main.rs.'), /completed · 2 requests/);
      await tab(page, 'tab-cache');
      assert.equal(await page.getAttribute('#cost-rule-live', 'data-rule'), 'anthropic');
      assert.match(await page.textContent('#cost-rule-live'),
        /^Anthropic pricing: cache reads at 0\.1× and cache writes at 1\.25× the input price/);
      // Typed prices: the cached-input price is not used; reads and writes follow the input price.
      await page.fill('#price-input', '3');
      await page.fill('#price-cached', '2');
      await page.fill('#price-output', '15');
      const usage = await page.evaluate(() => window.playground.usage.map((u) => [u.input_tokens, u.cached_tokens, u.cache_creation_tokens, u.output_tokens]));
      assert.equal(usage.length, 2);
      // The mock's cache lives in the engine: the earlier session's prefix is read, the rest written.
      assert.ok(usage.every(([, c, w]) => c > 0 && w > 0), JSON.stringify(usage));
      const dollars = usage.reduce((a, [i, c, w, o]) => a + (i - c - w) * 3 + c * 0.3 + w * 3.75 + o * 15, 0) / 1e6;
      const openai = usage.reduce((a, [i, c, , o]) => a + (i - c) * 3 + c * 2 + o * 15, 0) / 1e6;
      assert.notEqual(dollars.toFixed(4), openai.toFixed(4));
      const live = await page.textContent('#cost-live');
      assert.ok(live.startsWith(`Estimated cost: $${dollars.toFixed(4)} (`), `${live} (expected $${dollars.toFixed(4)})`);
      // The engine's cost of the same usage (cache_summary {prices}) by the same rule.
      assert.equal(await page.getAttribute('#cache-summary', 'data-pricing'), 'anthropic');
      assert.ok((await page.textContent('#cache-summary')).includes(`with output $${dollars.toFixed(4)}`));
      assert.match(await page.textContent('#cache-summary'), /written: predicted [\d,]+, reported [\d,]+/);
      await shot(page, 'cost-anthropic');
      // Exported and imported, the rollout's recorded writes are priced the same way.
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-rollout')]);
      const file = join(downloads, 'anthropic-session.jsonl');
      await download.saveAs(file);
      await page.setInputFiles('#import-rollout', file);
      await page.waitForFunction(() => document.querySelector('#replay-title').textContent.includes('anthropic-session.jsonl'));
      assert.equal(await page.getAttribute('#cost-rule-replay', 'data-rule'), 'anthropic');
      assert.equal(await page.textContent('#cost-replay'), live);
      assert.match(await page.textContent('#replay-summary'), /cache writes[\d,]+ input tokens written \(Anthropic pricing\)/);
      assert.match(await page.textContent('#replay-causes caption'), /written to the cache, \+\$[\d.]+ at 1\.25× the input price/);
      await tab(page, 'tab-cache');
      for (const [id, value] of [['#price-input', '1.25'], ['#price-cached', '0.125'], ['#price-output', '10']]) await page.fill(id, value);
      await page.selectOption('select[name="provider"]', 'responses');
    });

    assert.deepEqual(problems, []);
    assert.deepEqual(foreign, []);
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(downloads, { recursive: true, force: true });
  }
});
