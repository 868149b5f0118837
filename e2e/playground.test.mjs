// SPDX-License-Identifier: MIT
// The playground in Debian's Chromium (TOOLCHAIN §7): the page loads the built package through
// its import map, shows the engine version (= wasm/package.json) and a config.echo answer, with
// zero console errors and no request leaving the local server. Screenshot: e2e/out/playground.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'wasm/package.json'), 'utf8'));
const outDir = join(repo, 'e2e/out');

test('the playground shows the engine version and a config.echo answer', { timeout: 120000 }, async () => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')),
    'wasm/dist is not built: run cmake --workflow --preset wasm && node scripts/assemble_package.mjs');
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  let server;
  let context;
  try {
    server = await startServer({ port: 0 }); // inside try: a failed launch must not leak it
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium', headless: true, timeout: 30000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
    const foreign = [];
    page.on('request', (r) => { if (!r.url().startsWith(server.url)) foreign.push(r.url()); });

    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-state]', { state: 'attached', timeout: 30000 }).catch((cause) => {
      throw new Error(`the page never finished loading:\n${problems.join('\n')}`, { cause });
    });
    const state = await page.getAttribute('body', 'data-state');
    assert.equal(state, 'ready', `page state ${state}: ${await page.textContent('#status')}`);

    assert.equal((await page.textContent('#engine-version')).trim(), pkg.version);
    const echo = JSON.parse(await page.textContent('#echo-result'));
    assert.equal(JSON.stringify(echo), JSON.stringify({
      config: { approval_policy: null, cwd: '/workspace', model: 'mock', session_id: 'playground' },
      version: pkg.version,
    }));

    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: join(outDir, 'playground.png'), fullPage: true });
    assert.deepEqual(problems, []);
    assert.deepEqual(foreign, []);
  } finally {
    await context?.close();
    await server?.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
