// SPDX-License-Identifier: MIT
// The playground on a 1024×768 laptop and a 390×844 phone, in Debian's Chromium:
//  - nothing scrolls sideways: not the workspace/settings column, not the page;
//  - after a cache break, the request picker row says the break reason on screen (the select
//    cuts long option texts);
//  - every chart text (axis labels, compaction marker) is at least 11 CSS px on screen, in the
//    live and the replay chart: the chart is drawn at its width, never scaled down;
//  - on the phone the chat is near the top: Workspace and Settings start folded (one tap opens
//    them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium_launcher.mjs';
import { openAt, send, tab, turn } from './playground_helpers.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** How far an element's content reaches past its box, sideways (0: it does not scroll). */
const sideways = (page, selector) => page.$eval(selector, (e) => e.scrollWidth - e.clientWidth);

/** On-screen size in CSS px of every text of the charts in `selector`. */
const chartTextSizes = (page, selector) => page.$$eval(`${selector} svg.bars text`, (nodes) => nodes.map((t) => ({
  text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
})));

function assertReadable(sizes, where) {
  assert.ok(sizes.length > 0, `${where}: no chart text`);
  const small = sizes.filter((s) => s.px < 10.95).map((s) => `"${s.text}" ${s.px.toFixed(1)} px`);
  assert.deepEqual(small, [], `${where}: chart text under 11 px`);
}

test('the playground at 1024 and 390 px', { timeout: 420000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')), 'wasm/dist is not built: run bash scripts/build.sh');
  let server;
  let browser;
  try {
    server = await startServer({ port: 0 });
    browser = await launchChromium();
    const { context } = browser;

    await t.test('1024×768: the left column does not scroll sideways; the picker says the break reason', async () => {
      const page = await openAt(context, server.url, 1024, 768);
      try {
        assert.equal(await sideways(page, '.left'), 0, 'the workspace/settings column scrolls sideways');
        assert.ok(await sideways(page, 'html') <= 0, 'the page scrolls sideways');
        await send(page, 'Please read src/main.rs.');
        await page.check('input[name="mcp"]');
        await send(page, 'Any open issues?');
        assert.equal(await page.getAttribute('#request-report', 'data-break'), 'tools_changed');
        const picker = await page.$eval('#request-badges', (e) => {
          const r = e.getBoundingClientRect();
          const view = document.getElementById('view-inspector').getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return {
            text: e.textContent, inside: r.left >= view.left - 0.5 && r.right <= view.right + 0.5 && r.height > 0,
            reachable: hit === e || e.contains(hit), clipped: e.scrollWidth > e.clientWidth + 0.5,
          };
        });
        assert.match(picker.text, /break: tools_changed/);
        assert.ok(picker.inside && picker.reachable && !picker.clipped, JSON.stringify(picker));
        // Still no sideways scroll with the MCP tools and the tool call in the chat.
        assert.equal(await sideways(page, '.left'), 0);
      } finally {
        await page.close();
      }
    });

    for (const [width, height] of [[390, 844], [1024, 768]]) {
      await t.test(`${width}×${height}: chart text is at least 11 px, live and replayed`, async () => {
        const page = await openAt(context, server.url, width, height);
        try {
          await send(page, 'Please read src/main.rs.');
          for (let i = 0; i < 3; i++) await send(page, `Message ${i}.`);
          assert.match(await turn(page, () => page.click('#compact')), /completed/);
          await send(page, 'After the compaction.');
          await tab(page, 'tab-cache');
          assert.equal(await page.locator('#chart-live .marker-label').count(), 1);
          assertReadable(await chartTextSizes(page, '#chart-live'), 'live chart');
          await page.setInputFiles('#import-rollout', join(repo, 'tests/fixtures/rollouts/codex_0169_layout.jsonl'));
          await page.waitForFunction(() => document.querySelector('#replay-title').textContent.includes('codex_0169_layout'));
          await tab(page, 'tab-replay');
          assertReadable(await chartTextSizes(page, '#chart-replay'), 'replay chart');
          if (width === 390) assert.ok(await sideways(page, 'html') <= 0, 'the page scrolls sideways');
        } finally {
          await page.close();
        }
      });
    }

    await t.test('390×844: the chat is near the top; Workspace and Settings are folded, one tap away', async () => {
      const page = await openAt(context, server.url, 390, 844);
      try {
        assert.deepEqual(await page.evaluate(() => ['workspace-panel', 'settings-panel'].map((id) => document.getElementById(id).open)), [false, false]);
        const top = await page.$eval('.chat-column', (e) => e.getBoundingClientRect().top + scrollY);
        assert.ok(top <= 300, `the chat starts ${top} px down`);
        // The message box is on the first screen.
        const box = await page.$eval('#composer-input', (e) => e.getBoundingClientRect().top + scrollY);
        assert.ok(box < 844, `the message box starts ${box} px down`);
        await page.click('#settings-panel > summary');
        assert.equal(await page.isVisible('select[name="provider"]'), true);
        await page.click('#workspace-panel > summary');
        assert.equal(await page.isVisible('#file-tree'), true);
      } finally {
        await page.close();
      }
    });
  } finally {
    await browser?.close();
    await server?.close();
  }
});
