// SPDX-License-Identifier: MIT
// Crash-consistency trials: the CLI is killed with SIGKILL at a seeded point while
// `run --script` or a piped `resume` REPL writes its rollout, then the rollout is resumed
// twice. Used by wasi-host/test/crash_consistency.test.mjs (a few trials, `npm test`) and
// scripts/stress.mjs (>= 100 trials, `npm run stress`).
// Each trial checks:
//  1. every complete line (ending in LF) of the killed rollout is JSON; a last line without LF
//     is torn (or a complete line whose LF was lost);
//  2. resume exits 0, warns `rollout_torn_line` exactly when the tail was torn, and keeps
//     every complete line byte for byte (the file only grows after them);
//  3. the resumed request has no orphan call (each call is followed by its output), no output
//     without its call and no item twice (call ids), and carries every call and every user
//     message of the complete lines;
//  4. re-resuming the same file works the same way (no rollout_corrupt).
// Half the trials also cut the killed file inside its last line (a simulated torn write,
// seeded), since a kill rarely lands inside a write.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, runCli, tempTree } from '../../wasi-host/test/helpers.mjs';

/** A small seeded PRNG (mulberry32): the same seed gives the same trial. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROMPTS = ['Please read README.md.', 'hello', 'Please read src/main.rs.', 'thanks'];

/** A workspace, a script of `turns` submits, and the piped prompts for a resume REPL. */
export function makeFixture(turns = 12) {
  const tmp = tempTree({ 'ws/README.md': '# demo\nline two\nline three\n', 'ws/src/main.rs': 'fn main() {}\n' });
  const steps = [];
  for (let i = 0; i < turns; i++) steps.push(JSON.stringify({ submit: `${PROMPTS[i % PROMPTS.length]} (${i})` }));
  const script = join(tmp.dir, 'script.jsonl');
  writeFileSync(script, steps.join('\n') + '\n');
  const stdin = Array.from({ length: turns }, (_, i) => `${PROMPTS[i % PROMPTS.length]} [r${i}]`).join('\n') + '\n';
  return { dir: tmp.dir, ws: join(tmp.dir, 'ws'), script, stdin, cleanup: tmp.cleanup };
}

function onlyFile(dir) {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  return files.length === 1 ? join(dir, files[0]) : undefined;
}

/**
 * Spawns the CLI and SIGKILLs it once `file()` (polled) reaches `killAtBytes` bytes; resolves
 * {killed, code}. A run that ends first is not killed.
 */
function runAndKill(args, { cwd, input = '', file, killAtBytes, timeoutMs = 60000 }) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.AGENTCTX_HOME;
    delete env.OPENAI_API_KEY;
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
    let killed = false;
    const poll = setInterval(() => {
      const f = file();
      let size = 0;
      try { size = f === undefined ? 0 : statSync(f).size; } catch { size = 0; }
      if (size >= killAtBytes && !killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    }, 1);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ killed: killed && signal === 'SIGKILL', code: code ?? signal });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** Splits rollout bytes into complete lines and the tail after the last LF. */
export function splitRollout(text) {
  const cut = text.lastIndexOf('\n') + 1;
  const complete = text.slice(0, cut);
  return { complete, lines: complete.split('\n').slice(0, -1), tail: text.slice(cut) };
}

/** Check 3 on one request body; returns a list of problems (empty: fine). */
export function checkRequest(body, completeLines) {
  const problems = [];
  const input = body.input ?? [];
  const calls = new Map();
  const outputs = new Set();
  input.forEach((item, i) => {
    if (typeof item.call_id !== 'string') return;
    if (item.type.endsWith('_call')) {
      if (calls.has(item.call_id)) problems.push(`call ${item.call_id} twice`);
      calls.set(item.call_id, i);
    } else if (item.type.endsWith('_output')) {
      if (outputs.has(item.call_id)) problems.push(`output ${item.call_id} twice`);
      if (!calls.has(item.call_id)) problems.push(`output ${item.call_id} without its call`);
      outputs.add(item.call_id);
    }
  });
  for (const id of calls.keys()) if (!outputs.has(id)) problems.push(`orphan call ${id}`);
  const text = (item) => (item.content ?? []).map((c) => c.text ?? '').join('');
  const sentUser = new Set(input.filter((i) => i.type === 'message' && i.role === 'user').map(text));
  for (const line of completeLines) {
    const v = JSON.parse(line);
    if (v.type !== 'response_item') continue;
    const p = v.payload;
    if (typeof p.call_id === 'string' && p.type.endsWith('_call') && !calls.has(p.call_id)) {
      problems.push(`recorded call ${p.call_id} missing from the request`);
    }
    if (p.type === 'message' && p.role === 'user' && !sentUser.has(text(p))) {
      problems.push(`recorded user message ${JSON.stringify(text(p).slice(0, 40))} missing from the request`);
    }
  }
  return problems;
}

function firstDump(dir) {
  const names = existsSync(dir) ? readdirSync(dir).sort() : [];
  return names.length === 0 ? undefined : JSON.parse(readFileSync(join(dir, names[0]), 'utf8'));
}

/** Resumes `file` with one prompt; returns {problems, stderr}. Checks 2 and 3. */
async function resumeAndCheck(fx, home, file, label) {
  const before = readFileSync(file, 'utf8');
  const { complete, lines, tail } = splitRollout(before);
  let tornTail = false;
  if (tail !== '') {
    try { JSON.parse(tail); } catch { tornTail = true; }
  }
  const dump = join(fx.dir, `dump-${label}`);
  rmSync(dump, { recursive: true, force: true });
  const r = await runCli(['resume', '--workspace', fx.ws, '--home', home, '--dump-requests', dump, file, `after ${label}`], { cwd: fx.ws, timeoutMs: 60000 });
  const problems = [];
  if (r.code !== 0) problems.push(`${label}: resume exited ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  const warned = r.stderr.includes('rollout_torn_line');
  if (warned !== tornTail) problems.push(`${label}: torn tail ${tornTail} but warning ${warned}`);
  if (r.stderr.includes('rollout_corrupt')) problems.push(`${label}: rollout_corrupt`);
  const after = readFileSync(file, 'utf8');
  if (!after.startsWith(complete)) problems.push(`${label}: complete lines were not kept`);
  const body = firstDump(dump);
  if (body === undefined) problems.push(`${label}: no request was sent`);
  else problems.push(...checkRequest(body, lines).map((p) => `${label}: ${p}`));
  return { problems, tornTail };
}

/** Check 1; then, when `cutTail`, cuts the file inside its last line. */
function checkKilled(file, rand, cutTail) {
  const problems = [];
  const text = readFileSync(file, 'utf8');
  const { lines } = splitRollout(text);
  lines.forEach((l, i) => {
    try { JSON.parse(l); } catch { problems.push(`killed rollout: complete line ${i + 1} is not JSON`); }
  });
  if (cutTail && lines.length > 1) {
    const bytes = Buffer.byteLength(text);
    const lastLine = Buffer.byteLength(lines.at(-1)) + 1;
    const cut = bytes - 1 - Math.floor(rand() * (lastLine - 1)); // inside the last line
    truncateSync(file, cut);
  }
  return { problems, lines: lines.length };
}

/**
 * One trial. `mode` 'run' kills `run --script`; 'resume' kills a piped resume REPL of a
 * finished rollout (`fx.base`: a completed rollout to start from). Returns
 * {seed, mode, killed, lines, tornTail, problems, ms}.
 */
export async function trial(fx, mode, seed, { finalBytes }) {
  const started = Date.now();
  const rand = prng(seed);
  const home = join(fx.dir, `home-${mode}-${seed}`);
  const sessions = join(home, 'sessions');
  let file;
  let killed;
  if (mode === 'run') {
    const killAtBytes = 1 + Math.floor(rand() * finalBytes);
    ({ killed } = await runAndKill(['run', '--workspace', fx.ws, '--home', home, '--script', fx.script], {
      cwd: fx.ws, file: () => onlyFile(sessions), killAtBytes,
    }));
    file = onlyFile(sessions);
  } else {
    mkdirSync(sessions, { recursive: true });
    file = join(sessions, 'rollout-base.jsonl');
    copyFileSync(fx.base, file);
    const baseBytes = statSync(file).size;
    const killAtBytes = baseBytes + 1 + Math.floor(rand() * finalBytes);
    ({ killed } = await runAndKill(['resume', '--workspace', fx.ws, '--home', home, file], {
      cwd: fx.ws, input: fx.stdin, file: () => file, killAtBytes,
    }));
  }
  const problems = [];
  if (file === undefined) {
    // Killed before the guest created the rollout: nothing to recover, nothing lost.
    return { seed, mode, killed, lines: 0, tornTail: false, problems, ms: Date.now() - started };
  }
  const cutTail = rand() < 0.5;
  const killedCheck = checkKilled(file, rand, cutTail);
  problems.push(...killedCheck.problems);
  const first = await resumeAndCheck(fx, home, file, `resume-${seed}`);
  problems.push(...first.problems);
  const second = await resumeAndCheck(fx, home, file, `re-resume-${seed}`);
  problems.push(...second.problems);
  if (second.tornTail) problems.push('re-resume found a torn tail after a clean resume');
  return { seed, mode, killed, lines: killedCheck.lines, tornTail: first.tornTail, problems, ms: Date.now() - started };
}

/**
 * Prepares a fixture for `trial`: one complete scripted run (its rollout is `fx.base`, its size
 * the kill range of run trials). Returns {fx, finalBytes}.
 */
export async function prepare(turns = 12) {
  const fx = makeFixture(turns);
  const home = join(fx.dir, 'home-base');
  const r = await runCli(['run', '--workspace', fx.ws, '--home', home, '--script', fx.script], { cwd: fx.ws, timeoutMs: 120000 });
  if (r.code !== 0) throw new Error(`base run failed (${r.code}): ${r.stderr}`);
  fx.base = onlyFile(join(home, 'sessions'));
  return { fx, finalBytes: statSync(fx.base).size };
}
