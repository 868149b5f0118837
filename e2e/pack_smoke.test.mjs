// SPDX-License-Identifier: MIT
// npm-pack smoke test: `npm run pack` (scripts/pack.mjs) packs the built package, the tarball is
// installed into an empty project in a temporary directory outside the repository (no network:
// the package has no dependencies; the tarball carries README.md and the repository's LICENSE),
// then, as a user:
//  1. the README's package example (between its package-example markers), verbatim, in Node:
//     it prints what its trailing comment says;
//  2. one scripted mock turn in Node (runTurn + mockModelClient, a memory FileSystem);
//  3. type-check a consumer file with tsc --strict --noEmit against the installed .d.ts;
//  4. `npx agentctx --version` (the WASI CLI bin);
//  5. bundle browser entries with esbuild (--external:'node:*', agentctx.wasm copied next to the
//     bundle, as the README says) — the README example verbatim and the same turn — and run them
//     in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium } from './chromium_launcher.mjs';

import { startServer } from '../scripts/serve.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'wasm/package.json'), 'utf8'));
const tsc = join(repo, 'node_modules/typescript/bin/tsc');
const esbuild = join(repo, 'node_modules/esbuild/bin/esbuild');
const exec = promisify(execFile);

async function run(file, args, options = {}) {
  try {
    return await exec(file, args, { maxBuffer: 16 << 20, ...options });
  } catch (error) {
    throw new Error(`${file} ${args.join(' ')} failed (${error.code}):\n${error.stdout}${error.stderr}`, { cause: error });
  }
}

// The scripted turn, shared by the Node script and the browser entry (a function body).
const TURN = `
const engine = await createEngine();
const session = engine.openSession({
  workspace: createMemoryFileSystem({
    '/repo/.git/HEAD': 'ref: refs/heads/main\\n',
    '/repo/AGENTS.md': 'reply prefix: [smoke]\\n',
    '/repo/notes.txt': 'one\\ntwo\\n',
  }),
});
session.call('session.start', {
  config: { session_id: 'smoke', model: { slug: 'mock-1' }, environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] },
  now_ms: 0,
});
const deltas = [];
const lines = [];
let clock = 0;
const result = await runTurn(session, {
  input: 'Please read notes.txt.',
  model: mockModelClient(engine, { now: () => clock }),
  now: () => (clock += 1000),
  onEvent: (e) => { if (e.type === 'text_delta') deltas.push(e.delta); },
  onPersist: (l) => { lines.push(...l); },
});
session.close();
const answer = { version: engine.version(), result, streamed: deltas.join(''), lines: lines.length, handles: engine.stats().open_handles };
engine.dispose();
`;

const EXPECTED_ANSWER = '[smoke] Read notes.txt: 2 lines.';

// The README's package example, verbatim, and what its console.log line says it prints.
const README = readFileSync(join(repo, 'README.md'), 'utf8');
const EXAMPLE = README.match(/<!-- package-example:start -->\n```js\n([\s\S]*?)```\n<!-- package-example:end -->/)?.[1];
const EXAMPLE_PRINTS = EXAMPLE?.match(/^console\.log\(.*\); \/\/ (.+)$/m)?.[1];

const CONSUMER = `
import {
  AgentctxError, createEngine, createMemoryFileSystem, mockModelClient, openAIResponsesClient, runTurn,
  type AgentctxEvent, type ConfigDelta, type Effect, type ModelClient, type SessionConfig, type ToolHandler,
  type TurnResult,
} from 'agentctx';

export async function main(apiKey: string): Promise<TurnResult> {
  const engine = await createEngine();
  const config: SessionConfig = {
    session_id: 's', model: { slug: 'mock-1', context_window: 128000 },
    environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }],
    agents_md: { refresh: 'probe' }, tool_policy: 'defer',
    tools: [{ server: 'tracker', name: 'lookup', parameters: { type: 'object' } }],
  };
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'a' }) });
  const started: Effect[] = session.call('session.start', { config, now_ms: 0 }).effects;
  const delta: ConfigDelta = { cwd: '/repo/sub', model: { context_window: null }, sandbox: { mode: 'read-only' } };
  session.call('update', { delta });
  // @ts-expect-error not a sandbox mode
  session.call('update', { delta: { sandbox: { mode: 'bogus' } } });
  // @ts-expect-error submit needs text
  session.call('submit', { turn_id: 't' });
  // @ts-expect-error a misspelled method name
  session.call('sesion.start', { config, now_ms: 0 });
  const custom: { n: number } = engine.call<{ n: number }>('custom.method', { x: 1 });
  const tools: ToolHandler = (call) => (call.server === 'tracker' ? [{ type: 'input_text', text: call.arguments }] : 'no');
  const model: ModelClient = apiKey === '' ? mockModelClient(engine) : openAIResponsesClient({ apiKey });
  const result = await runTurn(session, {
    input: 'hi', model, tools,
    onEvent: (event: AgentctxEvent) => {
      if (event.type === 'cache_report' && event.break !== null) {
        const reason: 'tools_changed' | 'model_changed' | string = event.break.reason;
        void reason;
      }
      if (event.type === 'token_usage') {
        const cached: number = event.cached_tokens;
        void cached;
      }
    },
  });
  const inspected = engine.call('rollout.inspect', { text: '' });
  const requests: number = inspected.report.requests.length;
  const body: string = engine.call('mock.respond', { endpoint: 'responses', body: '{}' }).body;
  try {
    session.call('retry', { request_id: 'req-1' });
  } catch (e) {
    if (e instanceof AgentctxError && e.code === 'invalid_state') void e.message;
  }
  void [started, requests, body, custom];
  return result;
}
`;

test('npm run pack -> install -> README example and a turn in Node, tsc --strict, npx agentctx --version, esbuild bundles in Chromium', { timeout: 480000 }, async (t) => {
  assert.ok(existsSync(join(repo, 'wasm/dist/index.js')), 'wasm/dist is not built: node scripts/assemble_package.mjs');
  assert.ok(EXAMPLE && EXAMPLE_PRINTS, 'README.md lacks the package example between its markers, or its `// prints` comment');
  assert.ok(EXAMPLE.includes("from 'agentctx'"));
  const tmp = mkdtempSync(join(tmpdir(), 'agentctx-pack-'));
  try {
    const { stdout } = await run(process.execPath, [join(repo, 'scripts/pack.mjs'), tmp], { cwd: repo });
    const tarball = stdout.trim();
    assert.equal(dirname(tarball), tmp);
    const packed = (await run('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
    for (const f of ['dist/index.js', 'dist/index.node.js', 'dist/agentctx.wasm', 'dist/agentctx.mjs', 'dist/driver.d.ts', 'dist/protocol.d.ts', 'dist/wasi/cli.js', 'package.json', 'README.md', 'LICENSE']) {
      assert.ok(packed.includes(f), `the tarball lacks ${f}`);
    }
    const license = (await run('tar', ['-xzOf', tarball, 'package/LICENSE'])).stdout;
    assert.equal(license, readFileSync(join(repo, 'LICENSE'), 'utf8'));
    assert.match(license, /^MIT License\n/);
    assert.ok(!packed.some((f) => f.startsWith('ts/') || f.startsWith('test/') || f.startsWith('src/')), packed.join(', '));

    const project = join(tmp, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'smoke', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], { cwd: project });
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/agentctx/package.json'), 'utf8'));
    assert.equal(installed.version, pkg.version);

    await t.test('Node: the README example, verbatim, prints what it says', async () => {
      writeFileSync(join(project, 'readme-example.mjs'), EXAMPLE);
      const { stdout: printed } = await run(process.execPath, ['readme-example.mjs'], { cwd: project });
      assert.equal(printed.trim(), EXAMPLE_PRINTS);
    });

    await t.test('Node: one scripted mock turn', async () => {
      writeFileSync(join(project, 'turn.mjs'),
        `import { createEngine, createMemoryFileSystem, mockModelClient, runTurn } from 'agentctx';\n${TURN}\nconsole.log(JSON.stringify(answer));\n`);
      const out = JSON.parse((await run(process.execPath, ['turn.mjs'], { cwd: project })).stdout);
      assert.equal(out.version, pkg.version);
      assert.equal(out.result.reason, 'completed');
      assert.equal(out.result.requests, 2);
      assert.equal(out.result.last_agent_message, EXPECTED_ANSWER);
      assert.equal(out.streamed, EXPECTED_ANSWER);
      assert.ok(out.lines > 10);
      assert.equal(out.handles, 0);
    });

    await t.test('tsc --strict --noEmit on a consumer file', async () => {
      writeFileSync(join(project, 'consumer.ts'), CONSUMER);
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM', 'ESNext.Disposable'],
          types: ['node'], typeRoots: [join(repo, 'node_modules/@types')], strict: true, noEmit: true, skipLibCheck: false,
        },
        files: ['consumer.ts'],
      }));
      await run(process.execPath, [tsc, '-p', join(project, 'tsconfig.json')], { cwd: project });
    });

    await t.test('npx agentctx --version', async () => {
      const { stdout } = await run('npx', ['--no-install', 'agentctx', '--version'], { cwd: project });
      assert.equal(stdout.trim(), `agentctx ${pkg.version}`);
    });

    await t.test('an esbuild bundle runs the turn in Chromium', async () => {
      const web = join(project, 'web');
      mkdirSync(web);
      writeFileSync(join(project, 'entry.js'),
        `import { createEngine, createMemoryFileSystem, mockModelClient, runTurn } from 'agentctx';\n` +
        `try {\n${TURN}\ndocument.body.dataset.answer = JSON.stringify(answer);\n} catch (e) { document.body.dataset.error = String(e && e.stack || e); }\n`);
      await run(esbuild, ['entry.js', '--bundle', '--format=esm', '--platform=browser', '--external:node:*',
        '--outfile=web/bundle.js', '--log-level=warning'], { cwd: project });
      copyFileSync(join(project, 'node_modules/agentctx/dist/agentctx.wasm'), join(web, 'agentctx.wasm'));
      writeFileSync(join(web, 'index.html'),
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bundle</title>' +
        '<script type="module" src="/bundle.js"></script></head><body></body></html>');
      // The README example, verbatim, as its own bundle and page.
      writeFileSync(join(project, 'readme-entry.js'), EXAMPLE);
      await run(esbuild, ['readme-entry.js', '--bundle', '--format=esm', '--platform=browser', '--external:node:*',
        '--outfile=web/readme.js', '--log-level=warning'], { cwd: project });
      writeFileSync(join(web, 'readme.html'),
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>readme</title>' +
        '<script type="module" src="/readme.js"></script></head><body></body></html>');
      let server;
      let browser;
      try {
        server = await startServer({ port: 0, webRoot: web, packageRoot: web });
        browser = await launchChromium();
        const { context } = browser;
        const page = context.pages()[0] ?? (await context.newPage());
        const problems = [];
        page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(server.url);
        await page.waitForSelector('body[data-answer], body[data-error]', { state: 'attached', timeout: 30000 });
        assert.equal(await page.getAttribute('body', 'data-error'), null, await page.getAttribute('body', 'data-error'));
        const answer = JSON.parse(await page.getAttribute('body', 'data-answer'));
        assert.equal(answer.result.last_agent_message, EXPECTED_ANSWER);
        assert.equal(answer.streamed, EXPECTED_ANSWER);
        assert.equal(answer.version, pkg.version);

        const logged = [];
        page.on('console', (m) => { if (m.type() === 'log') logged.push(m.text()); });
        await page.goto(`${server.url}readme.html`);
        for (let i = 0; i < 300 && logged.length === 0 && problems.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
        assert.deepEqual(logged, [EXAMPLE_PRINTS]);
        assert.deepEqual(problems, []);
      } finally {
        await browser?.close();
        await server?.close();
      }
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
