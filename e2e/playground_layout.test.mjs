// SPDX-License-Identifier: MIT
// The playground's layout in Debian's Chromium, at the sizes where it broke:
//  - 390×844 (a phone) and 768×1024 (a portrait tablet): no region or control overlaps another,
//    every control is what the pointer hits at its centre (nothing drawn over it or clipping
//    it), in every view, and every view has room to be read; at 1024×768 and 1440×900 too;
//  - 1024×768: the active views get the room — the chat list, the request body and the cost
//    figures are visible at a readable size without scrolling the page;
//  - "Exact bytes" shows the bytes only, "Per item" the items only;
//  - the workspace tree opens at its root; the settings selects show their values whole.
// layout_checks.mjs has the checks, playground_helpers.mjs the page helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium_launcher.mjs';
import { cramped, cutSelects, overlaps, unreachable } from './layout_checks.mjs';
import { openAt, send, tab } from './playground_helpers.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const VIEWS = ['tab-inspector', 'tab-cache', 'tab-world', 'tab-agents', 'tab-replay'];

/** Height of an element's box in CSS px. */
const height = (page, selector) => page.$eval(selector, (e) => e.getBoundingClientRect().height);

test('playground layout', { timeout: 420000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')), 'wasm/dist is not built: run bash scripts/build.sh');
  let server;
  let browser;
  try {
    server = await startServer({ port: 0 });
    browser = await launchChromium();
    const { context } = browser;

    for (const [width, h] of [[390, 844], [768, 1024], [1024, 768], [1440, 900]]) {
      await t.test(`${width}×${h}: nothing overlaps, every control is reachable, every view readable`, async () => {
        const page = await openAt(context, server.url, width, h);
        try {
          await send(page, 'Please read src/main.rs.');
          await page.click('#chat details.tool-call summary');
          assert.deepEqual(await cutSelects(page), []);
          for (const view of VIEWS) {
            await tab(page, view);
            assert.deepEqual(await overlaps(page), [], `${view}: overlaps`);
            assert.deepEqual(await unreachable(page), [], `${view}: controls covered or clipped`);
            assert.equal(await cramped(page, `#${await page.getAttribute(`#${view}`, 'aria-controls')}`), null);
          }
          await tab(page, 'tab-inspector');
          await page.click('#body-pretty');
          assert.deepEqual(await overlaps(page), [], 'per item: overlaps');
          assert.deepEqual(await unreachable(page), [], 'per item: controls covered or clipped');
          assert.ok(await height(page, '.chat-column') >= 350, `the chat is ${await height(page, '.chat-column')} px tall`);
        } finally {
          await page.close();
        }
      });
    }

    await t.test('1024×768: the chat, the request body and the cost figures get the room', async () => {
      const page = await openAt(context, server.url, 1024, 768);
      try {
        await send(page, 'Please read src/main.rs.');
        assert.ok(await height(page, '#chat') >= 350, `the message list is ${await height(page, '#chat')} px tall`);
        const lines = await page.$eval('#request-body', (e) => e.clientHeight / parseFloat(getComputedStyle(e).lineHeight));
        assert.ok(lines >= 12, `the request body shows ${lines.toFixed(1)} lines`);
        await tab(page, 'tab-cache');
        // The cost line and the explainer totals are on screen without any scrolling.
        for (const id of ['cost-live', 'cache-summary']) {
          const box = await page.$eval(`#${id}`, (e) => {
            const r = e.getBoundingClientRect();
            return { top: r.top, bottom: r.bottom, scrolled: document.getElementById('view-cache').scrollTop + scrollY };
          });
          assert.equal(box.scrolled, 0);
          assert.ok(box.top >= 0 && box.bottom <= 768, `#${id} spans ${box.top}–${box.bottom} px of 768`);
        }
        // Settings all reachable, the tool-policy row included.
        assert.deepEqual(await unreachable(page), []);
      } finally {
        await page.close();
      }
    });

    await t.test('the workspace tree opens at its root', async () => {
      const page = await openAt(context, server.url, 1440, 900);
      try {
        // Not scrolled to the open file's directory (services/ would look like the root).
        assert.equal(await page.$eval('#file-tree', (e) => e.scrollTop), 0);
        assert.equal(await page.textContent('#file-tree > li:first-child > .dir'), 'home/');
        assert.equal(await page.inputValue('#file-path'), '/repo/services/api/AGENTS.md');
      } finally {
        await page.close();
      }
    });

    await t.test('"Exact bytes" shows only the bytes, "Per item" only the items', async () => {
      const page = await openAt(context, server.url, 1440, 900);
      try {
        await send(page, 'Please read src/main.rs.');
        const shown = async () => page.evaluate(() => ['request-body', 'request-items']
          .filter((id) => document.getElementById(id).checkVisibility()));
        assert.equal(await page.getAttribute('#body-raw', 'aria-pressed'), 'true');
        assert.deepEqual(await shown(), ['request-body']);
        await page.click('#body-pretty');
        assert.deepEqual(await shown(), ['request-items']);
        await page.click('#body-raw');
        assert.deepEqual(await shown(), ['request-body']);
      } finally {
        await page.close();
      }
    });
  } finally {
    await browser?.close();
    await server?.close();
  }
});
