// SPDX-License-Identifier: MIT
// The playground's cost view prices the cache writes a GPT-5.6 model reports by OpenAI's rule,
// in Debian's Chromium: the Responses API (fetch intercepted) answers two requests whose usage
// carries `cache_write_tokens`; the live estimate prices reads at the typed cached-input price and
// writes at 1.25× the input price, labelled so, and agrees with the engine's cost
// (`cache_summary {prices}`); exported and imported, the rollout's replay shows the writes and
// prices them the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium_launcher.mjs';
import { openAt, send, tab } from './playground_helpers.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

// [input, cached, written, output] of each answered request.
const USAGE = [[3000, 0, 2048, 5], [3100, 2048, 1024, 6]];

/** The Responses stream of answer `i`, with GPT-5.6 usage (reads and writes). */
function answer(i) {
  const [input, cached, written, output] = USAGE[i];
  const text = `Answer ${i + 1}.`;
  return [
    { type: 'response.created', response: { id: `resp_${i + 1}` } },
    { type: 'response.output_text.delta', item_id: `msg_${i + 1}`, output_index: 0, content_index: 0, delta: text },
    { type: 'response.output_item.done', output_index: 0, item: { type: 'message', id: `msg_${i + 1}`, role: 'assistant', content: [{ type: 'output_text', text }] } },
    {
      type: 'response.completed',
      response: {
        id: `resp_${i + 1}`,
        usage: {
          input_tokens: input, input_tokens_details: { cached_tokens: cached, cache_write_tokens: written },
          output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output,
        },
      },
    },
  ].map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

test('OpenAI cache writes are shown and priced at 1.25x the input, live and replayed', { timeout: 300000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')), 'wasm/dist is not built: run bash scripts/build.sh');
  const downloads = mkdtempSync(join(tmpdir(), 'playground-downloads-'));
  let server;
  let browser;
  try {
    server = await startServer({ port: 0 });
    browser = await launchChromium({ acceptDownloads: true });
    const page = await openAt(browser.context, server.url, 1440, 900);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    let answered = 0;
    await page.route('https://api.openai.com/**', (route) => route.fulfill({
      status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }, body: answer(answered++),
    }));
    await page.fill('input[name="model"]', 'gpt-5.6');
    await page.locator('input[name="model"]').dispatchEvent('change');
    await page.fill('#api-key', 'sk-test-playground-writes');
    assert.match(await send(page, 'Say hello.'), /completed · 1 request/);
    assert.match(await send(page, 'Again.'), /completed · 1 request/);
    assert.equal(answered, 2);
    await tab(page, 'tab-cache');
    for (const [id, value] of [['#price-input', '3'], ['#price-cached', '0.5'], ['#price-output', '15']]) await page.fill(id, value);
    // Reads at the cached-input price, writes at 1.25 × 3, the rest at the input price.
    const dollars = USAGE.reduce((a, [i, c, w, o]) => a + (i - c - w) * 3 + c * 0.5 + w * 3.75 + o * 15, 0) / 1e6;
    let live;

    await t.test('the live estimate prices the writes by OpenAI\'s rule and says so', async () => {
      assert.equal(await page.getAttribute('#cost-rule-live', 'data-rule'), 'openai');
      assert.match(await page.textContent('#cost-rule-live'),
        /^OpenAI pricing: cached input at the cached-input price, cache writes \(reported by GPT-5\.6 and later\) at 1\.25× the input price/);
      live = await page.textContent('#cost-live');
      assert.ok(live.startsWith(`Estimated cost: $${dollars.toFixed(4)} (`), `${live} (expected $${dollars.toFixed(4)})`);
      // The engine's cost of the same usage, by the same rule, with the write price it used.
      assert.equal(await page.getAttribute('#cache-summary', 'data-pricing'), 'openai');
      const summary = await page.textContent('#cache-summary');
      assert.ok(summary.includes(`with output $${dollars.toFixed(4)}`), summary);
      assert.ok(summary.includes('(cache writes at $3.75 per million)'), summary);
      // The engine's own prediction of 5.6+ writes stands beside the reported figure.
      assert.match(summary, /written: predicted [\d,]+, reported 3,072/);
    });

    await t.test('exported and imported, the replay shows the writes and prices them the same way', async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-rollout')]);
      const file = join(downloads, 'gpt-5.6-session.jsonl');
      await download.saveAs(file);
      await page.setInputFiles('#import-rollout', file);
      await page.waitForFunction(() => document.querySelector('#replay-title').textContent.includes('gpt-5.6-session.jsonl'));
      assert.equal(await page.getAttribute('#cost-rule-replay', 'data-rule'), 'openai');
      assert.equal(await page.textContent('#cost-replay'), live);
      assert.match(await page.textContent('#replay-summary'), /cache writes3,072 input tokens written \(OpenAI pricing\)/);
      const premium = (3072 * 0.25 * 3) / 1e6;
      assert.match(await page.textContent('#replay-causes caption'),
        new RegExp(`3,072 of them written to the cache, \\+\\$${premium.toFixed(4).replace('.', '\\.')} at 1\\.25× the input price$`));
    });

    assert.deepEqual(problems, []);
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(downloads, { recursive: true, force: true });
  }
});
