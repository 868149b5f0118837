// SPDX-License-Identifier: MIT
// The agentctx home (--home, else $AGENTCTX_HOME, else ~/.agentctx): where it may be, how the CLI
// makes its directories, and what of it the engine's tools must not reach when it lies in the
// workspace.
// Invariants:
//  - An empty home value (`--home ''`, `AGENTCTX_HOME=`) and a home that exists but is not a
//    directory are usage errors naming where the value came from.
//  - Directories are made one level at a time, never with Node's recursive mkdir (which loops
//    forever where mkdir answers ENOENT under an existing parent, as in /proc): a directory
//    that cannot be made is a HostInputError naming the flag, the path and the errno.
//  - The engine's tools never reach the home through /workspace (sandbox.ts invariant 15):
//    a home inside the workspace is hidden whole; a workspace inside the home hides the
//    home's own entries (sessions/, AGENTS.md, AGENTS.override.md) where they fall inside it;
//    a workspace inside the home's sessions/ is refused. The CLI says once when it hides.
import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { HostInputError } from './config.js';

/** Where the home's value came from, for messages: `--home X`, `AGENTCTX_HOME=X` or the default. */
export interface HomeChoice {
  path: string;
  label: string;
}

/** The home the flags and the environment choose; `undefined` flag: not given. */
export function chooseHome(flag: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): HomeChoice {
  if (flag !== undefined) {
    if (flag === '') throw new HostInputError('--home needs a directory (an empty value would make the current directory the home)');
    return checked({ path: resolve(flag), label: `--home ${flag}` });
  }
  const fromEnv = env['AGENTCTX_HOME'];
  if (fromEnv !== undefined) {
    if (fromEnv === '') throw new HostInputError('AGENTCTX_HOME is set but empty: set it to a directory, or unset it for ~/.agentctx');
    return checked({ path: resolve(fromEnv), label: `AGENTCTX_HOME=${fromEnv}` });
  }
  const path = join(homedir(), '.agentctx');
  return checked({ path, label: `the home ${path}` });
}

function checked(home: HomeChoice): HomeChoice {
  let isDir: boolean | undefined;
  try {
    isDir = statSync(home.path).isDirectory();
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code !== 'ENOENT') throw new HostInputError(`${home.label}: cannot use it (${String(code ?? e)})`);
  }
  if (isDir === false) throw new HostInputError(`${home.label}: not a directory`);
  return home;
}

/** Makes `dir` and its missing parents, one level at a time; `label` names the flag in errors. */
export function makeDirectory(dir: string, label: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); ; p = dirname(p)) {
    let isDir: boolean | undefined;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (code !== 'ENOENT') throw new HostInputError(`${label}: cannot use ${p} (${String(code ?? e)})`);
    }
    if (isDir === false) throw new HostInputError(`${label}: ${p} is not a directory`);
    if (isDir === true) break;
    missing.unshift(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing) {
    try {
      mkdirSync(p);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (code === 'EEXIST' && isDirectory(p)) continue;
      throw new HostInputError(`${label}: cannot create ${p} (${String(code ?? e)})`);
    }
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The real path of `p`, or of its deepest existing ancestor with the rest appended. */
function realOrAncestor(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(realOrAncestor(parent), basename(p));
  }
}

/** True when `p` is `root` or below it. */
function within(p: string, root: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !rel.startsWith(sep));
}

/** The home's own entries: what a workspace that holds them must not show the engine. */
const HOME_ENTRIES = ['sessions', 'AGENTS.md', 'AGENTS.override.md'];

/**
 * What of the home to hide in the workspace (host paths, for GuestOptions.hideInWorkspace),
 * and the one line that says so; none when the two do not overlap. A workspace inside the
 * home's sessions/ is a HostInputError.
 */
export function homeInWorkspace(workspace: string, home: HomeChoice): { hidden: string[]; note?: string } {
  const ws = realOrAncestor(workspace);
  const h = realOrAncestor(home.path);
  if (h !== ws && within(h, ws)) {
    return { hidden: [h], note: `${home.label} lies inside the workspace: the engine's tools cannot see or change it` };
  }
  if (!within(ws, h)) return { hidden: [] };
  if (within(ws, join(h, 'sessions'))) {
    throw new HostInputError(`--workspace ${workspace}: inside the rollouts of ${home.label} (sessions/); choose another workspace or home`);
  }
  const hidden = HOME_ENTRIES.map((e) => join(h, e)).filter((p) => within(p, ws));
  if (hidden.length === 0) return { hidden: [] };
  return { hidden, note: `the workspace is ${home.label}: the engine's tools cannot see or change its sessions/, AGENTS.md or AGENTS.override.md` };
}
