// SPDX-License-Identifier: MIT
// The MCP approval prompt on a real terminal (docs/mcp.md, "Approval"): the built `agentctx`
// REPL runs under a pseudo-terminal (`script` from util-linux; skipped with a message where it
// is missing) with the hostile server (tests/mcp/hostile_server.mjs).
//  - The question names the tool by its sanitised name, and nothing the server chose (a name of
//    CR, erase-line and cursor-up sequences that would repaint the question) reaches the
//    terminal raw.
//  - A line typed ahead never answers the question: `#mock-call:…` and `a` typed together run
//    nothing; the `a` is discarded (and said), and only what is typed after the question counts —
//    an unfinished line typed before it included.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, REPO, loadHost, tempTree } from './helpers.mjs';

await loadHost();
const { mcpToolName } = await import('agentctx');

const HOSTILE = join(REPO, 'tests/mcp/hostile_server.mjs');
const { SPOOF_NAME } = await import(HOSTILE);
const NO_SCRIPT = spawnSync('script', ['--version']).status !== 0 && '`script` (util-linux) is not installed';
const QUESTION = /Run it\? \[y\]es \/ \[n\]o \/ \[a\]lways for this tool: /g;

const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The REPL under a pseudo-terminal: `write(text)` types, `waitFor(re, count)` resolves once the
 * terminal showed `re` `count` times, `done` resolves {code, screen} when it exits.
 */
function replOnTerminal() {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const dir = tree.dir;
  const args = [process.execPath, CLI, 'run', '--interactive', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'),
    '--dump-requests', join(dir, 'dump'), '--mcp', `hostile=${process.execPath} ${HOSTILE}`];
  const env = { ...process.env, TERM: 'dumb' };
  for (const k of ['AGENTCTX_HOME', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY']) delete env[k];
  const child = spawn('script', ['-qfec', args.map(quote).join(' '), '/dev/null'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  const watchers = [];
  child.stdout.setEncoding('utf8').on('data', (d) => {
    screen += d;
    for (const w of [...watchers]) w();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
  const done = new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    for (const w of [...watchers]) w();
    resolve({ code, screen });
  }));
  const bodies = () => {
    const dump = join(dir, 'dump');
    return existsSync(dump) ? readdirSync(dump).sort().map((f) => readFileSync(join(dump, f), 'utf8')) : [];
  };
  return {
    write: (text) => child.stdin.write(text),
    get screen() { return screen; },
    bodies,
    done,
    waitFor: (re, count = 1) => new Promise((resolve, reject) => {
      const check = () => {
        const seen = (screen.match(new RegExp(re.source, 'g')) ?? []).length;
        if (seen >= count) {
          watchers.splice(watchers.indexOf(check), 1);
          resolve();
        } else if (child.exitCode !== null) {
          reject(new Error(`the REPL ended before showing ${re} ${count} times:\n${screen}`));
        }
      };
      watchers.push(check);
      check();
    }),
  };
}

/**
 * Everything the terminal was sent, with the pty's CRLF line ends as LF and the CLI's own
 * erase-line (CR ESC[2K, the status line's, wasi-host/src/status_line.ts) left out: no raw
 * control but LF and TAB. (The hostile name's cursor-up and OSC 52 are never the CLI's own.)
 */
function assertScreenSafe(screen) {
  const text = screen.replace(/\r\n/g, '\n').replaceAll('\r\u001b[2K', '');
  const m = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.exec(text);
  assert.equal(m, null, m && `raw U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} on the terminal: ${JSON.stringify(text.slice(Math.max(0, m.index - 80), m.index + 20))}`);
}

test('the question names the tool by its sanitised name; nothing the server chose repaints it', { skip: NO_SCRIPT }, async () => {
  const name = mcpToolName('hostile', SPOOF_NAME);
  const repl = replOnTerminal();
  await repl.waitFor(/one turn per line/);
  repl.write(`#mock-call:${name}={}\n`);
  await repl.waitFor(QUESTION);
  assert.ok(repl.screen.includes(`agentctx: MCP tool ${name} wants to run outside the sandbox with {}. Run it?`), repl.screen);
  repl.write('n\n');
  await repl.waitFor(/\n> /, 2);
  repl.write('/exit\n');
  const { code, screen } = await repl.done;
  assert.equal(code, 0, screen);
  assertScreenSafe(screen);
  assert.ok(repl.bodies()[1].includes(`the user declined to run ${name}`));
});

test('Regression: a line typed ahead does not answer the approval question (`a` typed with the call runs nothing)', { skip: NO_SCRIPT }, async () => {
  const repl = replOnTerminal();
  await repl.waitFor(/one turn per line/);
  repl.write('#mock-call:mcp__hostile__fail={}\na\n'); // typed together, before any question
  await repl.waitFor(QUESTION);
  // Nothing ran meanwhile: the question still waits for its answer (the `a` did not answer it).
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(repl.bodies().length, 1, `the call was answered by the line typed ahead:\n${repl.screen}`);
  assert.match(repl.screen, /agentctx: 1 line typed before this question was discarded/);
  repl.write('n\n');
  await repl.waitFor(/\n> /, 2);
  repl.write('/exit\n');
  const { code, screen } = await repl.done;
  assert.equal(code, 0, screen);
  const after = repl.bodies()[1];
  assert.ok(after.includes('the user declined to run mcp__hostile__fail'), after);
  assert.ok(!after.includes('failed \\r'), 'the tool never ran');
});

test('an unfinished line typed before the question is discarded too: Enter alone answers nothing', { skip: NO_SCRIPT }, async () => {
  const repl = replOnTerminal();
  await repl.waitFor(/one turn per line/);
  repl.write('#mock-call:mcp__hostile__fail={}\na'); // `a` without Enter, before the question
  await repl.waitFor(QUESTION);
  repl.write('\n'); // would have sent "a" (always) before
  await repl.waitFor(QUESTION, 2); // an empty answer asks again
  repl.write('n\n');
  await repl.waitFor(/\n> /, 2);
  repl.write('/exit\n');
  const { code, screen } = await repl.done;
  assert.equal(code, 0, screen);
  const after = repl.bodies()[1];
  assert.ok(after.includes('the user declined to run mcp__hostile__fail'), after);
});
