// SPDX-License-Identifier: MIT
// The playground's settings offer the compaction strategies the engine has (inband and server
// included), and the Requests view marks what a body asks of the provider, in Debian's
// Chromium (one session, in order):
//  - under tool_policy native, the request after the pretend MCP server connects carries an
//    `additional_tools` item: it is marked as a native tool change (in the list and in its
//    report), the requests before are not, and the cache does not break;
//  - with strategy inband, a forced compaction is one request ending with a
//    `compaction_trigger` item: it is marked as a compaction trigger;
//  - with strategy server on Anthropic, every turn request carries the threshold edit and is
//    marked with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium_launcher.mjs';
import { openAt, send, tab, turn } from './playground_helpers.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** The option texts of the request list. */
const options = (page) => page.$$eval('#request-select option', (nodes) => nodes.map((n) => n.textContent));

/** The data-mark values of the shown request's report. */
const marks = (page) => page.$$eval('#request-report li.mark', (nodes) => nodes.map((n) => n.dataset.mark));

test('the playground offers the new strategies and marks tool changes and compaction triggers', { timeout: 300000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')), 'wasm/dist is not built: run bash scripts/build.sh');
  let server;
  let browser;
  try {
    server = await startServer({ port: 0 });
    browser = await launchChromium();
    const page = await openAt(browser.context, server.url, 1440, 900);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await tab(page, 'tab-inspector');

    await t.test('the settings offer every compaction strategy', async () => {
      const values = await page.$$eval('select[name="compaction"] option', (nodes) => nodes.map((n) => n.value));
      assert.deepEqual(values, ['local', 'remote', 'inband', 'server']);
      assert.equal(await page.inputValue('select[name="compaction"]'), 'local');
    });

    await t.test('a native tool change is marked on the request that carries it', async () => {
      await send(page, 'Please read src/main.rs.');
      assert.ok((await options(page)).every((o) => !o.includes('tool change')));
      await page.check('input[name="tool_policy"][value="native"]');
      await page.check('input[name="mcp"]');
      await send(page, 'Any open issues?');
      const list = await options(page);
      const changed = list.map((o, i) => (o.includes('tool change') ? i : -1)).filter((i) => i >= 0);
      assert.equal(changed.length, 1, list.join('\n'));
      await page.selectOption('#request-select', String(changed[0]));
      assert.deepEqual(await marks(page), ['native-tool-change']);
      assert.match(await page.textContent('#request-report li.mark'), /additional_tools item \(mcp__tracker__/);
      assert.equal(await page.getAttribute('#request-report', 'data-break'), 'none');
      assert.ok((await page.textContent('#request-body')).includes('"type":"additional_tools"'));
      // The request before it carries none.
      await page.selectOption('#request-select', String(changed[0] - 1));
      assert.deepEqual(await marks(page), []);
    });

    await t.test('an in-band compaction is marked as a compaction trigger', async () => {
      await page.selectOption('select[name="compaction"]', 'inband');
      assert.match(await page.textContent('#settings-note'), /"strategy":"inband"/);
      assert.match(await turn(page, () => page.click('#compact')), /completed · 1 request$/);
      assert.match(await page.locator('#request-select option:checked').textContent(), /· compact.*· compaction trigger/);
      assert.deepEqual(await marks(page), ['compaction-trigger']);
      assert.match(await page.textContent('#request-report li.mark'), /compact in-band/);
      assert.ok((await page.textContent('#request-body')).includes('{"type":"compaction_trigger"}]'));
    });

    await t.test('server compaction on Anthropic marks each request with its threshold', async () => {
      await page.fill('input[name="context_window"]', '200000');
      await page.dispatchEvent('input[name="context_window"]', 'change');
      await page.selectOption('select[name="provider"]', 'anthropic');
      await page.selectOption('select[name="compaction"]', 'server');
      await send(page, 'Hello again.');
      assert.deepEqual(await marks(page), ['compaction-trigger']);
      assert.match(await page.textContent('#request-report li.mark'), /compacts past [\d,]+ input tokens \(compact_20260112\)/);
    });
    assert.deepEqual(problems, []);
  } finally {
    await browser?.close();
    await server?.close();
  }
});
