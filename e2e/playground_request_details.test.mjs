// SPDX-License-Identifier: MIT
// The Requests view shows where a request differs and what the provider side did, in Debian's
// Chromium at 1024×768 (one session, in order):
//  - Exact bytes, after a tools change: the first differing byte is flagged where the explainer
//    says (in the tools, although the Responses body writes the conversation first) and scrolled
//    to; bytes that changed and bytes re-sent unchanged after the difference look different;
//  - Per item: the changed entries are open (the tools group and its new tool), the unchanged
//    ones folded (re-sent conversation items, reused tools);
//  - the "body lists the tools last" note shows on Responses bodies only, not on Anthropic ones;
//  - Anthropic: each request shows its breakpoint plan and, once answered, the provider's cache
//    verdict beside the explainer's; the Cache & cost view shows the next request's plan; a turn
//    after the cache went cold starts with a prewarm request, shown as such with the cold-cache
//    estimate, and counted in the Cache & cost view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium_launcher.mjs';
import { openAt, send, tab } from './playground_helpers.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** The text of the byte view before the first element matching `selector`. */
const textBefore = (page, selector) => page.$eval('#request-body', (pre, sel) => {
  const target = pre.querySelector(sel);
  if (target === null) return null;
  let text = '';
  for (const node of pre.childNodes) {
    if (node === target) return text;
    text += node.textContent;
  }
  return null;
}, selector);

const texts = (page, selector) => page.$$eval(selector, (nodes) => nodes.map((n) => n.textContent).join(''));

test('the Requests view: the first difference, changed vs re-sent, and the provider side', { timeout: 420000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')), 'wasm/dist is not built: run bash scripts/build.sh');
  let server;
  let browser;
  try {
    server = await startServer({ port: 0 });
    browser = await launchChromium();
    const page = await openAt(browser.context, server.url, 1024, 768);
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console.error: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));

    await t.test('Exact bytes: the first differing byte is flagged in the tools and scrolled to', async () => {
      await send(page, 'Please read src/main.rs.');
      await page.check('input[name="mcp"]');
      await send(page, 'Any open issues?');
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'tools_changed');
      assert.equal(await page.locator('#request-body .first-diff').count(), 1);
      // In the body the conversation comes first, but the flag is in the tools array.
      const before = await textBefore(page, '.first-diff');
      assert.ok(before.lastIndexOf('"tools":[') > before.lastIndexOf('"input":['), 'the first difference is not in the tools');
      assert.match(await page.textContent('#request-body .first-diff'), /mcp__tracker__/);
      // Scrolled to it: the flag is inside the box's visible part.
      const where = await page.$eval('#request-body', (pre) => {
        const flag = pre.querySelector('.first-diff').getBoundingClientRect();
        const box = pre.getBoundingClientRect();
        return { flag: flag.top, top: box.top, bottom: box.bottom };
      });
      assert.ok(where.flag >= where.top && where.flag < where.bottom, JSON.stringify(where));
      // The previous turn's message is re-sent unchanged; the new message and tool are changed.
      const earlier = '"text":"Please read src/main.rs."';
      assert.ok((await texts(page, '#request-body mark.resent')).includes(earlier));
      assert.ok(!(await texts(page, '#request-body mark.changed')).includes(earlier));
      assert.ok((await texts(page, '#request-body mark.changed')).includes('"text":"Any open issues?"'));
      const look = await page.evaluate(() => ['mark.changed', 'mark.resent'].map((sel) => {
        const style = getComputedStyle(document.querySelector(`#request-body ${sel}`));
        return `${style.backgroundColor} ${style.textDecorationLine}`;
      }));
      assert.notEqual(look[0], look[1], 'changed and re-sent bytes look the same');
    });

    await t.test('Per item: the change is open, the unchanged entries folded', async () => {
      await page.click('#body-pretty');
      const tools = page.locator('#request-items details.item[data-part="tools"]');
      assert.equal(await tools.getAttribute('open'), '');
      const toolEntries = await tools.locator('.items > details.item').evaluateAll((nodes) => nodes.map((n) => ({
        name: n.querySelector('summary').textContent, state: n.dataset.state, open: n.open,
      })));
      const added = toolEntries.filter((e) => e.name.includes('mcp__tracker__'));
      assert.ok(added.length > 0 && added.every((e) => e.state === 'new' && e.open), JSON.stringify(added));
      const kept = toolEntries.filter((e) => !e.name.includes('mcp__tracker__'));
      assert.ok(kept.length > 0 && kept.every((e) => !e.open), JSON.stringify(kept));
      const items = await page.$$eval('#request-items .input-items > details.item', (nodes) => nodes.map((n) => ({ state: n.dataset.state, open: n.open })));
      assert.equal(items[0].state, 're-sent');
      for (const item of items) assert.equal(item.open, item.state === 'new', JSON.stringify(items));
      assert.ok(items.some((i) => i.state === 'new'));
      await page.click('#body-raw');
    });

    await t.test('the tools-last note shows on a Responses body only', async () => {
      assert.equal(await page.isVisible('#body-order-note'), true);
      assert.match(await page.textContent('#body-order-note'), /the body writes instructions → conversation → tools\./);
      await page.uncheck('input[name="mcp"]');
      await page.selectOption('select[name="provider"]', 'anthropic');
      await send(page, 'Hello from Anthropic.');
      const body = JSON.parse(await page.evaluate(() => window.playground.requests.at(-1).body));
      assert.ok(Array.isArray(body.messages));
      assert.equal(await page.isVisible('#body-order-note'), false);
    });

    await t.test('Anthropic: the breakpoint plan and the provider\'s verdict of each request', async () => {
      await send(page, 'Please read src/routes.rs.');
      const report = await page.evaluate(() => window.playground.requests.at(-1).report);
      assert.ok(Array.isArray(report.breakpoints) && report.breakpoints.length > 0);
      const rows = await page.$$eval('#request-report [data-facts="breakpoints"] tbody tr', (trs) => trs.map((tr) => tr.dataset.at));
      assert.deepEqual(rows, report.breakpoints.map((b) => b.at));
      const placed = report.breakpoints.filter((b) => b.placed).length;
      assert.equal(await page.locator('#request-report [data-facts="breakpoints"] tbody tr.placed').count(), placed);
      const verdict = await page.evaluate(() => window.playground.requests.at(-1).diagnosis);
      assert.ok(verdict, 'no cache_diagnosis for the request');
      assert.equal(await page.getAttribute('#request-report [data-facts="diagnosis"]', 'data-verdict'), verdict.verdict);
      assert.match(await page.textContent('#request-report [data-facts="diagnosis"]'), new RegExp(`Provider's cache verdict: ${verdict.provider_reason}`));
      await tab(page, 'tab-cache');
      assert.match(await page.textContent('#provider-side [data-facts="next-breakpoints"]'), /tools (✓|✗)/);
      assert.equal(await page.getAttribute('#provider-side [data-facts="prewarm-count"]', 'data-count'), '0');
    });

    await t.test('a turn after the cache went cold: the prewarm request and the estimate are shown', async () => {
      await page.selectOption('select[name="prewarm"]', 'auto');
      // An hour later, by the page's clock: past the 5-minute Anthropic cache TTL.
      await page.evaluate(() => { window.playground.now = () => Date.now() + 3600 * 1000; });
      await tab(page, 'tab-inspector');
      await send(page, 'Please read src/errors.rs.');
      const purposes = await page.evaluate(() => window.playground.requests.slice(-3).map((r) => r.purpose));
      assert.ok(purposes.includes('prewarm'), purposes.join());
      const index = await page.evaluate(() => window.playground.requests.findLastIndex((r) => r.purpose === 'prewarm'));
      await page.selectOption('#request-select', String(index));
      assert.match(await page.textContent('#request-badges'), /prewarm/);
      assert.match(await page.textContent('#request-report [data-facts="prewarm"]'), /^Prewarm:/);
      assert.match(await page.textContent('#request-report [data-facts="cache-cold"]'), /Cache cold: idle .* prewarmed first\./);
      await tab(page, 'tab-cache');
      assert.equal(await page.getAttribute('#provider-side [data-facts="prewarm-count"]', 'data-count'), '1');
    });

    assert.deepEqual(problems, []);
  } finally {
    await browser?.close();
    await server?.close();
  }
});
