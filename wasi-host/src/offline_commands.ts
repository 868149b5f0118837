// SPDX-License-Identifier: MIT
// The CLI commands that open no session: `replay` (rollout.inspect on the engine handle, the
// rollout crossing as an attachment, never escaped into the JSON: the file is read in chunks
// straight into the guest's buffer, never whole into a JS string or Buffer, so its size is
// bounded by the guest's memory and not by V8's string limit; --dump-requests writes each
// reconstructed request) and `serve-mock` (the mock model over HTTP on 127.0.0.1 until SIGINT or
// SIGTERM, which end it at once: the guest answers in a worker thread, mock_worker.ts, so a long
// answer never holds the signal). cli.ts validates the flags; everything here assumes they are
// well-formed.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliOptions, GuestLoader } from './commands.js';
import { HostInputError } from './config.js';
import { EngineError } from './driver.js';
import { AgentctxHostError, type AttachmentSource } from './guest.js';
import { MockGuestWorker } from './mock_worker.js';
import { parseMockClock, startMockServer } from './serve_mock.js';
import { terminalLine, terminalText } from './terminal_text.js';

/** One line on stderr, its control characters made visible (terminal_text.ts). */
function stderr(line: string): void {
  process.stderr.write(terminalLine(line) + '\n');
}

/** The most bytes one read of a rollout asks for (a read past 2 GiB fails in Node). */
export const ROLLOUT_READ_CHUNK_BYTES = 64 * 1024 * 1024;

/**
 * `file` as an attachment the guest's buffer is filled from in reads of at most `chunkBytes`.
 * The file is opened (and its size taken) here: a missing or unreadable file is a HostInputError
 * before the guest loads; a read that fails or comes up short later is an AgentctxHostError.
 */
export function fileAttachment(file: string, chunkBytes = ROLLOUT_READ_CHUNK_BYTES): AttachmentSource & { close(): void } {
  let fd: number;
  let size: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    throw new HostInputError(`${file}: cannot read the rollout`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new HostInputError(`${file}: cannot read the rollout (not a file)`);
    size = st.size;
    if (size > 0xffffffff) throw new HostInputError(`${file}: cannot read the rollout (${size} bytes; the limit is 4 GiB)`);
  } catch (e) {
    closeSync(fd);
    throw e instanceof HostInputError ? e : new HostInputError(`${file}: cannot read the rollout`);
  }
  return {
    byteLength: size,
    fill(dst: Uint8Array): void {
      let done = 0;
      try {
        while (done < dst.length) {
          const n = readSync(fd, dst, done, Math.min(chunkBytes, dst.length - done), done);
          if (n === 0) break;
          done += n;
        }
      } catch (e) {
        throw new AgentctxHostError('io', `${file}: cannot read the rollout (${e instanceof Error ? e.message : String(e)})`);
      }
      if (done !== dst.length) throw new AgentctxHostError('io', `${file}: the rollout changed while it was read (${done} of ${dst.length} bytes)`);
    },
    close(): void {
      closeSync(fd);
    },
  };
}

export async function replayCommand(args: string[], o: CliOptions, load: GuestLoader): Promise<number> {
  const [file, ...rest] = args;
  if (file === undefined) throw new HostInputError('replay needs a rollout FILE.jsonl');
  if (rest.length > 0) throw new HostInputError(`replay takes one FILE, got an extra argument '${rest[0]}'`);
  const rollout = fileAttachment(file);
  const flags = o.replay ?? {};
  // The rollout crosses as bytes beside the JSON (attachment 0), never escaped into it.
  const input: Record<string, unknown> = { text: { $bytes: 0 } };
  if (flags.cacheTtlMs !== undefined) input['ttl_ms'] = flags.cacheTtlMs;
  if (flags.prices !== undefined) input['prices'] = flags.prices;
  if (o.provider !== undefined) input['provider'] = o.provider;
  if (flags.requests) input['requests'] = true;
  if (flags.top !== undefined) input['top'] = flags.top;
  if (o.dumpRequests !== undefined) input['dump_requests'] = true;
  let result;
  try {
    const guest = await load();
    result = guest.callResult(0, 'rollout.inspect', JSON.stringify(input), [rollout]);
  } finally {
    rollout.close();
  }
  const { ok, envelope } = result;
  const parsed = JSON.parse(envelope) as { value?: { report: unknown; table: string; dump?: RequestDump }; error?: { code?: string; message?: string } };
  if (!ok || parsed.value === undefined) {
    throw new EngineError(parsed.error?.code ?? 'internal', `${file}: ${parsed.error?.message ?? 'no message'}`);
  }
  if (o.dumpRequests !== undefined && parsed.value.dump !== undefined) writeRequestDump(o.dumpRequests, parsed.value.dump);
  // The table quotes the rollout (tool names, texts a server sent): escaped on a terminal.
  const table = parsed.value.table.replace(/\n?$/, '\n');
  process.stdout.write(o.json ? JSON.stringify(parsed.value.report) + '\n' : process.stdout.isTTY === true ? terminalText(table) : table);
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
