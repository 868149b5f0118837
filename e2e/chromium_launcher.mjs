// SPDX-License-Identifier: MIT
// One way for the e2e suites to start Debian's Chromium under Playwright: the same flags for
// every suite, a launch timeout sized for a loaded CI machine (a cold start on a fresh machine
// has been seen to take over 30 s there), and one more try with a new profile when a launch
// times out, since a hung first start is the browser's, not the product's. Any other launch
// error, or a second timeout, is reported as it is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const LAUNCH_TIMEOUT_MS = 90000;
const ATTEMPTS = 2;

// Returns { context, close } — close() closes the browser and removes its profile.
export async function launchChromium(options = {}) {
  let lastError;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
    try {
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: '/usr/bin/chromium', headless: true, timeout: LAUNCH_TIMEOUT_MS, args: CHROMIUM_ARGS, ...options,
      });
      return {
        context,
        close: async () => {
          await context.close();
          rmSync(profile, { recursive: true, force: true });
        },
      };
    } catch (error) {
      rmSync(profile, { recursive: true, force: true });
      lastError = error;
      if (error?.name !== 'TimeoutError') break;
      console.error(`# chromium launch attempt ${attempt} timed out after ${LAUNCH_TIMEOUT_MS} ms`);
    }
  }
  throw lastError;
}
