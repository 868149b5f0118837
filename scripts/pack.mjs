#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// `npm run pack [-- DIR]`: packs the built npm package (wasm/, name "agentctx") into a tarball
// in DIR (default: the directory npm was run from). agentctx is not on the npm registry: this
// tarball, or the wasm/ folder itself, is what `npm install` takes. Refuses to pack a package
// that was not built (wasm/dist), since it would install without its modules.
// stdout: the tarball's absolute path (one line); stderr: what to do with it.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dest = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? '.');

for (const file of ['wasm/dist/index.js', 'wasm/dist/agentctx.wasm', 'wasm/dist/wasi/cli.js', 'wasm/README.md', 'wasm/LICENSE']) {
  if (!existsSync(join(root, file))) {
    console.error(`pack: ${file} is missing: build the package first (npm run build)`);
    process.exit(1);
  }
}
mkdirSync(dest, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(npm, ['pack', '--json', '--pack-destination', dest], { cwd: join(root, 'wasm'), encoding: 'utf8' });
if (r.status !== 0) {
  process.stderr.write(r.stderr);
  console.error('pack: npm pack failed');
  process.exit(1);
}
const [{ filename }] = JSON.parse(r.stdout);
const tarball = join(dest, filename);
console.error(`pack: wrote ${tarball}\npack: install it in your project with: npm install ${tarball}`);
console.log(tarball);
