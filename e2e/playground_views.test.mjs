// SPDX-License-Identifier: MIT
// The playground's views agree with one another and with the engine, in Debian's Chromium at
// 1440×900 (one session, in order):
//  - the API key field is labelled by the session's provider and holds one key per provider:
//    a key typed for OpenAI is never sent to Anthropic;
//  - after a tools change the byte view's highlight starts in the tools, where the explainer
//    says the prompt first differs, and the whole conversation after it is marked not reused;
//    for every request the highlight starts in the part the explainer names;
//  - the Cache & cost chart names request ids on its x axis, counts the requests as the other
//    views do, and a click on a bar opens that request and its break;
//  - after a turn run on another tab, Exact bytes is scrolled to the first new byte;
//  - a compaction marker's label stays inside the chart;
//  - after a turn, the Requests view shows the request where the turn broke the cache (named by
//    a banner with a link back while another request is shown);
//  - a rollout without token counts is "no usage recorded", not a $0 cost, and its byte reuse
//    is still shown;
//  - a cwd that does not exist is refused by the engine (invalid_config naming the path) and
//    nothing changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium_launcher.mjs';
import { openAt, send, tab, turn } from './playground_helpers.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** The text of every run of one kind in the byte view, joined. */
const runs = (page, selector) => page.$$eval(`#request-body ${selector}`, (nodes) => nodes.map((n) => n.textContent).join(''));

/** For each run of the byte view highlighted as changed: the body text before it. */
const beforeEachChanged = (page) => page.$eval('#request-body', (pre) => {
  const out = [];
  let text = '';
  for (const node of pre.childNodes) {
    if (node.matches?.('mark.fresh.changed')) out.push(text);
    text += node.textContent;
  }
  return out;
});

/** The prompt part the explainer's break names (the parts in prompt order). */
function partOfBreak(section) {
  if (section === 'model' || section === 'cache_key' || section === 'instructions') return 'instructions';
  return section === 'tools' ? 'tools' : 'input';
}

test('playground views agree with each other and with the engine', { timeout: 420000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')), 'wasm/dist is not built: run bash scripts/build.sh');
  const tmp = mkdtempSync(join(tmpdir(), 'playground-views-'));
  let server;
  let browser;
  try {
    server = await startServer({ port: 0 });
    browser = await launchChromium();
    const page = await openAt(browser.context, server.url, 1440, 900);
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    const sent = [];
    await page.route(/^https:\/\/api\.(openai|anthropic)\.com\//, (route) => {
      sent.push(route.request().url());
      return route.abort();
    });

    await t.test('one API key per provider, the field labelled by the session\'s provider', async () => {
      const openaiKey = 'sk-test-openai-0123456789';
      const anthropicKey = 'sk-ant-test-0123456789';
      assert.equal(await page.textContent('#api-key-label'), 'OpenAI API key');
      await page.fill('#api-key', openaiKey);
      assert.match(await page.textContent('#model-source'), /OpenAI Responses API/);
      await page.selectOption('select[name="provider"]', 'anthropic');
      assert.equal(await page.textContent('#api-key-label'), 'Anthropic API key');
      assert.equal(await page.inputValue('#api-key'), '');
      assert.equal(await page.textContent('#model-source'), 'mock model (offline)');
      // No Anthropic key: the mock answers, and the OpenAI key goes nowhere.
      await send(page, 'Hello.');
      assert.match(await page.locator('#chat .msg.assistant .text').last().textContent(), /Mock reply to: Hello\.$/);
      assert.deepEqual(sent, []);
      await page.fill('#api-key', anthropicKey);
      await page.selectOption('select[name="provider"]', 'chat');
      assert.equal(await page.textContent('#api-key-label'), 'OpenAI API key');
      assert.equal(await page.inputValue('#api-key'), openaiKey);
      await page.selectOption('select[name="provider"]', 'anthropic');
      assert.equal(await page.inputValue('#api-key'), anthropicKey);
      await page.fill('#api-key', '');
      await page.selectOption('select[name="provider"]', 'responses');
      await page.fill('#api-key', '');
      assert.equal(await page.textContent('#model-source'), 'mock model (offline)');
      const html = await page.content();
      assert.ok(!html.includes(openaiKey) && !html.includes(anthropicKey));
      assert.deepEqual(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]), [0, 0, '']);
      await page.click('#new-session');
      await page.waitForFunction(() => window.playground.requests.length === 0);
    });

    await t.test('after a tools change the highlight starts in the tools, as the explainer says', async () => {
      await send(page, 'Please read src/main.rs.');
      await page.check('input[name="mcp"]');
      await send(page, 'Any open issues?');
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'tools_changed');
      assert.match(await page.textContent('#request-report .break'), /First difference at prompt byte [\d,]+ in tools/);
      assert.equal(await page.getAttribute('#request-body', 'data-fresh-from'), 'tools');
      // The body lists the tools after the input: one highlighted run starts inside the tools
      // array, after its unchanged (reused) start.
      const inTools = (await beforeEachChanged(page)).filter((before) => before.lastIndexOf('"tools":[') > before.lastIndexOf('"input":['));
      assert.equal(inTools.length, 1, 'no highlight starts in the tools');
      assert.ok((await runs(page, 'span.reused')).includes('[{"type":"function","name":"read_file"'));
      // The conversation comes after the tools in the prompt: none of it is reused, not even
      // the previous turn's message, unchanged since the previous request.
      const earlier = '"text":"Please read src/main.rs."';
      assert.ok((await runs(page, 'mark.fresh')).includes(earlier));
      assert.ok(!(await runs(page, 'span.reused')).includes(earlier));
      assert.match(await page.textContent('#body-order-note'), /prompt order/);
      await page.click('#body-pretty');
      assert.equal(await page.getAttribute('#request-items .input-items details[data-index="0"]', 'data-state'), 're-sent');
      await page.click('#body-raw');
    });

    await t.test('the chart names request ids, counts what the other views count, and opens a request', async () => {
      await tab(page, 'tab-cache');
      const ids = await page.evaluate(() => window.playground.usage.map((u) => u.request_id));
      const labels = await page.$$eval('#chart-live .bars text.x', (nodes) => nodes.map((n) => n.textContent));
      assert.deepEqual(labels, ids.map((id) => id.replace(/^req-/, '')));
      const summary = await page.evaluate(() => window.playground.session.call('cache_summary').requests);
      assert.equal(Number(await page.getAttribute('#chart-live figure', 'data-requests')), summary);
      assert.match(await page.textContent('#chart-live .chart-summary'), new RegExp(`^${summary} requests?`));
      assert.match(await page.textContent('#cache-summary'), new RegExp(`requests${summary}`));
      const broke = await page.evaluate(() => window.playground.requests.find((r) => r.report?.break?.reason === 'tools_changed').id);
      await page.click(`#chart-live .bars .bar[data-request="${broke}"]`);
      assert.equal(await page.getAttribute('#tab-inspector', 'aria-selected'), 'true');
      assert.equal(await page.getAttribute('#request-report', 'data-request'), broke);
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'tools_changed');
      assert.match(await page.textContent('#request-badges'), new RegExp(`of ${summary} requests`));
    });

    await t.test('a turn run on another tab: Exact bytes opens at the first new byte', async () => {
      await tab(page, 'tab-inspector');
      await page.$eval('#request-body', (pre) => { pre.scrollTop = 0; });
      await tab(page, 'tab-cache');
      await send(page, 'Please read src/routes.rs.');
      await tab(page, 'tab-inspector');
      const where = await page.evaluate(() => {
        const pre = document.getElementById('request-body');
        const mark = pre.querySelector('mark.fresh').getBoundingClientRect();
        const box = pre.getBoundingClientRect();
        return { mark: mark.top, top: box.top, bottom: box.bottom, scrolled: pre.scrollTop };
      });
      assert.ok(where.scrolled > 0, JSON.stringify(where));
      assert.ok(where.mark >= where.top && where.mark < where.bottom, JSON.stringify(where));
    });

    await t.test('a compaction marker\'s label stays inside the chart', async () => {
      // Enough bars that a label drawn right of the last one would leave the plot.
      for (let i = 0; i < 6; i++) await send(page, `Message ${i}.`);
      assert.match(await turn(page, () => page.click('#compact')), /completed · 1 request$/);
      await send(page, 'After the compaction.');
      await tab(page, 'tab-cache');
      const markers = JSON.parse(await page.getAttribute('#chart-live figure', 'data-markers'));
      const bars = JSON.parse(await page.getAttribute('#chart-live figure', 'data-series')).length;
      assert.deepEqual(markers, [bars - 1]);
      const box = await page.$eval('#chart-live .marker-label', (label) => {
        const b = label.getBBox();
        return { left: b.x, right: b.x + b.width, width: label.ownerSVGElement.viewBox.baseVal.width };
      });
      assert.ok(box.left >= 0 && box.right <= box.width, JSON.stringify(box));
    });

    await t.test('after a turn the Requests view shows where it broke the cache', async () => {
      await tab(page, 'tab-inspector');
      assert.match(await turn(page, () => page.click('#compact')), /completed · 1 request$/);
      assert.match(await send(page, 'Please read src/errors.rs.'), /completed · 2 requests/);
      const [first, last] = await page.evaluate(() => window.playground.requests.slice(-2).map((r) => ({ id: r.id, reason: r.report?.break?.reason ?? 'none' })));
      assert.deepEqual([first.reason, last.reason], ['history_rewritten_by_compaction', 'none']);
      assert.equal(await page.getAttribute('#request-report', 'data-request'), first.id);
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'history_rewritten_by_compaction');
      assert.match(await page.textContent('#break-banner'), new RegExp(`broke the prompt cache at ${first.id}`));
      // Another request shown: the banner links back to the break.
      const lastIndex = await page.evaluate(() => String(window.playground.requests.length - 1));
      await page.selectOption('#request-select', lastIndex);
      assert.equal(await page.getAttribute('#request-report', 'data-request'), last.id);
      await page.click(`#break-banner button`);
      assert.equal(await page.getAttribute('#request-report', 'data-request'), first.id);
    });

    await t.test('for every request the highlight starts in the part the explainer names', async () => {
      const reports = await page.evaluate(() => window.playground.requests.map((r) => r.report?.break?.section ?? null));
      assert.ok(reports.filter((s) => s !== null).length >= 3);
      for (const [i, section] of reports.entries()) {
        if (i === 0) continue;
        await page.selectOption('#request-select', String(i));
        const from = await page.getAttribute('#request-body', 'data-fresh-from');
        if (section === null) assert.ok(from === 'input' || from === 'none', `request ${i}: no break, highlight from ${from}`);
        else assert.equal(from, partOfBreak(section), `request ${i}: break in ${section}`);
      }
    });

    await t.test('a rollout without token counts has no cost, and its byte reuse is shown', async () => {
      const source = readFileSync(join(repo, 'tests/fixtures/rollouts/codex_two_turns.jsonl'), 'utf8');
      const file = join(tmp, 'no_usage.jsonl');
      writeFileSync(file, source.split('\n').filter((l) => !l.includes('"token_count"')).join('\n'));
      await page.setInputFiles('#import-rollout', file);
      await page.waitForFunction(() => document.querySelector('#replay-title').textContent.includes('no_usage.jsonl'));
      assert.equal(await page.textContent('#cost-replay'), 'No usage recorded — cost cannot be estimated.');
      const summary = await page.textContent('#replay-summary');
      assert.match(summary, /prefix reuse\d+\.\d\d %/);
      assert.match(summary, /no usage recorded/);
      assert.ok(!summary.includes('$0.0000'));
    });

    await t.test('a replay bar shows what changed in its request', async () => {
      await page.setInputFiles('#import-rollout', join(repo, 'tests/fixtures/rollouts/codex_0169_layout.jsonl'));
      await page.waitForFunction(() => document.querySelector('#replay-title').textContent.includes('codex_0169_layout'));
      const labels = await page.$$eval('#chart-replay .bars text.x', (nodes) => nodes.map((n) => n.textContent));
      const ids = await page.$$eval('#chart-replay .bars .bar', (nodes) => nodes.map((n) => n.dataset.request));
      assert.deepEqual(labels, ids.map((id) => id.replace(/^req-/, '')));
      await page.click(`#chart-replay .bars .bar[data-request="${ids[0]}"]`);
      assert.match(await page.textContent('#replay-diff'), new RegExp(`^${ids[0]}: the first request`));
    });

    await t.test('a cwd that does not exist is refused, and nothing changes', async () => {
      const before = await page.evaluate(() => window.playground.config.environments[0].cwd);
      await page.fill('input[name="cwd"]', '/repo/no/such/dir');
      await page.locator('input[name="cwd"]').dispatchEvent('change');
      assert.match(await page.textContent('#status'), /^invalid_config: .*\/repo\/no\/such\/dir/);
      assert.equal(await page.textContent('#settings-note'), 'Rejected by the engine; nothing changed.');
      assert.equal(await page.inputValue('input[name="cwd"]'), before);
      assert.equal(await page.evaluate(() => window.playground.config.environments[0].cwd), before);
      await send(page, 'Where am I?');
      assert.equal(await page.textContent('#status'), '');
      assert.ok(!(await page.evaluate(() => window.playground.requests.at(-1).body)).includes('/repo/no/such/dir'));
    });

    assert.deepEqual(sent, []);
    assert.deepEqual(problems, []);
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
