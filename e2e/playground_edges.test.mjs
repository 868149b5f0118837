// SPDX-License-Identifier: MIT
// Playground rough edges at 1024×768 in Debian's Chromium: agentctx.wasm arrives
// gzip-compressed; a file the model writes appears in the workspace tree at once; the
// AGENTS.md "why" answer follows the file just edited (by the user or the model); the Send/Stop
// row stays visible; the greyed "reused" request text has at least 4.5:1 contrast (light and
// dark); the per-item request view shows each input item collapsible, reused or new; a refused
// tool call is reported once, not "write_file failed: write_file refused: …".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium_launcher.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

async function send(page, text) {
  const before = await page.locator('#chat .note.turn').count();
  await page.fill('#composer-input', text);
  await page.click('#send');
  await page.locator('#chat .note.turn').nth(before).waitFor({ timeout: 30000 });
  await page.waitForSelector('#send:not([disabled])');
}

async function tab(page, id) {
  await page.click(`#${id}`);
  await page.waitForSelector(`#${id}[aria-selected="true"]`);
}

/** WCAG contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(a, b) {
  const lum = (css) => {
    const [r, g, bl] = css.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Colour and background of the first `.reused` span of the request body. */
const reusedColours = (page) => page.evaluate(() => {
  const span = document.querySelector('#request-body .reused');
  const box = document.getElementById('request-body');
  return [getComputedStyle(span).color, getComputedStyle(box).backgroundColor];
});

test('playground rough edges at 1024×768', { timeout: 420000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')), 'wasm/dist is not built: run bash scripts/build.sh');
  let server;
  let browser;
  try {
    server = await startServer({ port: 0 });
    browser = await launchChromium({ viewport: { width: 1024, height: 768 } });
    const { context } = browser;
    const page = context.pages()[0] ?? (await context.newPage());
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    const wasmResponse = page.waitForResponse((r) => r.url().endsWith('/agentctx/agentctx.wasm'));
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-state="ready"]', { timeout: 30000 });

    await t.test('agentctx.wasm is served gzip-compressed', async () => {
      const response = await wasmResponse;
      assert.equal(response.status(), 200);
      assert.equal((await response.allHeaders())['content-encoding'], 'gzip');
    });

    await t.test('a file the model writes appears in the tree without another click', async () => {
      const path = '/repo/services/api/notes/todo.txt';
      assert.equal(await page.locator(`#file-tree button[data-path="${path}"]`).count(), 0);
      await send(page, '#mock-write:notes/todo.txt=remember the milk');
      assert.equal(await page.locator(`#file-tree button[data-path="${path}"]`).count(), 1);
      // The open file, changed by the model, is reloaded in the editor (no unsaved edits there).
      await page.click('#file-tree button[data-path="/repo/services/api/src/routes.rs"]');
      await send(page, '#mock-edit:src/routes.rs=/health=>/healthz');
      assert.match(await page.inputValue('#file-content'), /"\/healthz"/);
      assert.match(await page.textContent('#file-note'), /changed by the model/);
    });

    await t.test('the AGENTS.md answer follows the file just edited', async () => {
      await tab(page, 'tab-agents');
      assert.equal(await page.inputValue('#agents-file'), '/repo/services/api/AGENTS.md');
      // The user edits the root AGENTS.md: the answer is about that file, not the one shown.
      await page.click('#file-tree button[data-path="/repo/AGENTS.md"]');
      await page.fill('#file-content', `${await page.inputValue('#file-content')}\nKeep changes small.\n`);
      await page.click('#file-save');
      assert.equal(await page.inputValue('#agents-file'), '/repo/AGENTS.md');
      assert.match(await page.textContent('#agents-why'), /not visible yet/i);
      // Picking another file by hand sticks until the next edit.
      await page.selectOption('#agents-file', '/repo/services/web/AGENTS.md');
      await send(page, 'hello');
      assert.equal(await page.inputValue('#agents-file'), '/repo/services/web/AGENTS.md');
      // The model edits the api service's AGENTS.md: the answer moves to it.
      await send(page, '#mock-edit:AGENTS.md=never panic in handlers=>never panic in a handler');
      assert.equal(await page.inputValue('#agents-file'), '/repo/services/api/AGENTS.md');
      assert.match(await page.textContent('#agents-why'), /loaded, but not with its current text/);
    });

    await t.test('a refused tool call is reported once', async () => {
      await send(page, '#mock-write:/etc/passwd=x');
      const reply = await page.locator('#chat .msg.assistant .text').last().textContent();
      assert.match(reply, /^\[api\] write_file refused: \/etc\/passwd is outside the writable roots$/);
    });

    await t.test('the Send/Stop row stays visible', async () => {
      for (const id of ['send', 'stop']) {
        const visible = await page.evaluate((which) => {
          const b = document.getElementById(which).getBoundingClientRect();
          const x = b.left + b.width / 2;
          const y = b.top + b.height / 2;
          return b.bottom <= innerHeight && b.top >= 0 && document.elementFromPoint(x, y)?.id === which;
        }, id);
        assert.ok(visible, `#${id} is cut off or covered`);
      }
    });

    await t.test('reused request text has at least 4.5:1 contrast, light and dark', async () => {
      await tab(page, 'tab-inspector');
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        const [fg, bg] = await reusedColours(page);
        const ratio = contrast(fg, bg);
        assert.ok(ratio >= 4.5, `${scheme}: ${fg} on ${bg} is ${ratio.toFixed(2)}:1`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    });

    await t.test('the per-item view shows every input item, collapsible, reused or new', async () => {
      await page.click('#body-pretty');
      assert.equal(await page.getAttribute('#body-pretty', 'aria-pressed'), 'true');
      assert.equal(await page.isVisible('#request-body'), false);
      const body = JSON.parse(await page.evaluate(() => window.playground.requests.at(-1).body));
      const entries = page.locator('#request-items .input-items > details.item');
      assert.equal(await entries.count(), body.input.length);
      const reused = await page.locator('#request-items .input-items > details.item.reused').count();
      const fresh = await page.locator('#request-items .input-items > details.item.fresh').count();
      assert.ok(reused > 0 && fresh > 0 && reused + fresh === body.input.length, `${reused} reused, ${fresh} new`);
      // New items are open, reused ones closed; each opens to the item's pretty JSON.
      assert.equal(await page.locator('#request-items .input-items > details.item.fresh[open]').count(), fresh);
      const first = entries.first();
      assert.equal(await first.getAttribute('open'), null);
      await first.locator('summary').click();
      assert.deepEqual(JSON.parse(await first.locator('pre').textContent()), body.input[0]);
      assert.equal(await page.locator('#request-items details.item summary', { hasText: `tools (${body.tools.length})` }).count(), 1);
      await page.click('#body-raw');
      assert.equal(await page.isVisible('#request-body'), true);
    });

    assert.deepEqual(problems, []);
  } finally {
    await browser?.close();
    await server?.close();
  }
});
