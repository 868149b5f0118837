// SPDX-License-Identifier: MIT
// The CLI commands that open no session: `replay` (rollout.inspect on the engine handle, the
// rollout crossing as an attachment, never escaped into the JSON; --dump-requests writes each
// reconstructed request) and `serve-mock` (the mock model over HTTP on 127.0.0.1 until SIGINT or
// SIGTERM, which end it at once: the guest answers in a worker thread, mock_worker.ts, so a long
// answer never holds the signal). cli.ts validates the flags; everything here assumes they are
// well-formed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliOptions, GuestLoader } from './commands.js';
import { HostInputError } from './config.js';
import { EngineError } from './driver.js';
import { MockGuestWorker } from './mock_worker.js';
import { parseMockClock, startMockServer } from './serve_mock.js';

function stderr(line: string): void {
  process.stderr.write(line.replace(/\s*\n\s*/g, ' ') + '\n');
}

export async function replayCommand(args: string[], o: CliOptions, load: GuestLoader): Promise<number> {
  const [file, ...rest] = args;
  if (file === undefined) throw new HostInputError('replay needs a rollout FILE.jsonl');
  if (rest.length > 0) throw new HostInputError(`replay takes one FILE, got an extra argument '${rest[0]}'`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new HostInputError(`${file}: cannot read the rollout`);
  }
  const flags = o.replay ?? {};
  // The rollout crosses as bytes beside the JSON (attachment 0), never escaped into it.
  const input: Record<string, unknown> = { text: { $bytes: 0 } };
  if (flags.cacheTtlMs !== undefined) input['ttl_ms'] = flags.cacheTtlMs;
  if (flags.prices !== undefined) input['prices'] = flags.prices;
  if (o.provider !== undefined) input['provider'] = o.provider;
  if (flags.requests) input['requests'] = true;
  if (flags.top !== undefined) input['top'] = flags.top;
  if (o.dumpRequests !== undefined) input['dump_requests'] = true;
  const guest = await load();
  const { ok, envelope } = guest.callResult(0, 'rollout.inspect', JSON.stringify(input), [Buffer.from(text, 'utf8')]);
  const parsed = JSON.parse(envelope) as { value?: { report: unknown; table: string; dump?: RequestDump }; error?: { code?: string; message?: string } };
  if (!ok || parsed.value === undefined) {
    throw new EngineError(parsed.error?.code ?? 'internal', `${file}: ${parsed.error?.message ?? 'no message'}`);
  }
  if (o.dumpRequests !== undefined && parsed.value.dump !== undefined) writeRequestDump(o.dumpRequests, parsed.value.dump);
  process.stdout.write(o.json ? JSON.stringify(parsed.value.report) + '\n' : parsed.value.table.replace(/\n?$/, '\n'));
  return 0;
}

/** rollout.inspect's dump: distinct items once, each request's input as [first, end) ranges. */
interface RequestDump {
  items: string[];
  requests: { request_id: string; model: string; instructions?: string; input: [number, number][] }[];
}

/** Writes DIR/NNNN.json per reconstructed request, NNNN the number of its request id (req-N). */
function writeRequestDump(dir: string, dump: RequestDump): void {
  mkdirSync(dir, { recursive: true });
  for (const r of dump.requests) {
    const items: string[] = [];
    for (const [first, end] of r.input) for (let i = first; i < end; i++) items.push(dump.items[i] as string);
    const instructions = r.instructions === undefined ? '' : `,"instructions":${JSON.stringify(r.instructions)}`;
    const n = r.request_id.replace(/^req-/, '');
    writeFileSync(join(dir, `${n.padStart(4, '0')}.json`), `{"model":${JSON.stringify(r.model)}${instructions},"input":[${items.join(',')}]}\n`);
  }
}

export async function serveMockCommand(args: string[], o: CliOptions, _load: GuestLoader): Promise<number> {
  if (args.length > 0) throw new HostInputError(`serve-mock takes no arguments, got '${args[0]}'`);
  const clock = parseMockClock(o.clock);
  if (clock === undefined) throw new HostInputError(`--clock ${o.clock ?? ''}: expected wall or step:<ms>`);
  const guest = await MockGuestWorker.start(clock);
  let server;
  try {
    server = await startMockServer({
      answer: (request) => guest.answer(request), port: o.port, clock, log: (line) => stderr(`agentctx serve-mock: ${line}`),
    });
  } catch (e) {
    await guest.terminate();
    throw e;
  }
  process.stdout.write(`agentctx serve-mock: listening on ${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void Promise.all([server.close(), guest.terminate()]).then(() => resolve());
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
