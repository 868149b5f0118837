// SPDX-License-Identifier: MIT
// Where the built package lives (wasm/dist, assembled by scripts/assemble_package.mjs) and a
// wait for it: the lead rebuilds it now and then, and the assembly wipes the folder first.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// AGENTCTX_DIST: another assembled package (a private build), for a single script's run.
export const DIST = process.env.AGENTCTX_DIST ?? join(ROOT, 'wasm', 'dist');
export const REQUIRED = ['index.node.js', 'agentctx.mjs', 'agentctx.wasm', 'wasi/guest.js', 'wasi/agentctx.wasm'];

/** A file URL inside wasm/dist. */
export const distUrl = (name) => pathToFileURL(join(DIST, name)).href;

/** The files of REQUIRED that are missing now. */
export const missingDist = () => REQUIRED.filter((f) => !existsSync(join(DIST, f)));

/** Waits (up to `timeoutMs`) until every REQUIRED file exists; throws with the missing ones. */
export async function waitForDist(timeoutMs = 5 * 60 * 1000, log = () => {}) {
  const deadline = Date.now() + timeoutMs;
  let missing = missingDist();
  let said = false;
  while (missing.length > 0) {
    if (Date.now() > deadline) {
      throw new Error(`wasm/dist is incomplete (missing ${missing.join(', ')}): build it with scripts/build.sh`);
    }
    if (!said) log(`waiting for wasm/dist (missing ${missing.join(', ')}) …`);
    said = true;
    await new Promise((r) => setTimeout(r, 5000));
    missing = missingDist();
  }
  // The assembly writes files one by one: a settled folder has had no change for a moment.
  if (said) await new Promise((r) => setTimeout(r, 5000));
}
