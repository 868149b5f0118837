#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Rollout benchmarks, one JSON object on stdout per invocation:
//   build  --out=FILE [--mb=10]      runs the tool loop (8 KB tool outputs) through the package
//                                    and writes its persist lines until the rollout reaches
//                                    `mb` MB -> {bytes, steps, lines}
//   resume --variant=embind|wasi --rollout=FILE [--reps=3]
//                                    session.resume with the rollout as a Uint8Array (an input
//                                    attachment), then the first request after it (submit)
//                                    -> {resume_ms[], first_body_ms[], bytes, body_bytes}
//                                    (rep 0 is the process's first: cold)
//   replay --variant=embind|wasi --dir=DIR [--reps=3]
//                                    rollout.inspect (the replay) of each *.jsonl in DIR
//                                    -> {files: [{name, bytes, ms[], requests, prompt_bytes}]}
//                                    (one warm-up call first), or
//                                    {skipped: reason} when DIR is absent
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CONFIG, EngineLoop, modelRequest, openSession, stepNow } from './workload.mjs';

export const ROLLOUT_OUTPUT_BYTES = 8192;

const args = Object.fromEntries(process.argv.slice(3).map((a) => {
  const m = /^--([^=]+)=(.*)$/.exec(a);
  if (!m) throw new Error(`bad argument ${a}`);
  return [m[1], m[2]];
}));

async function build() {
  const target = Number(args.mb ?? 10) * 1e6;
  const opened = await openSession('embind');
  const lines = [];
  let bytes = 0;
  const onPersist = (ls) => {
    for (const l of ls) {
      lines.push(l);
      bytes += Buffer.byteLength(l) + 1;
    }
  };
  const loop = new EngineLoop(opened.session, ROLLOUT_OUTPUT_BYTES).start(CONFIG, onPersist);
  while (bytes < target) loop.run(loop.steps + 1, onPersist);
  opened.close();
  writeFileSync(args.out, lines.join('\n') + '\n');
  return { bytes, steps: loop.steps, lines: lines.length };
}

async function resume() {
  const text = readFileSync(args.rollout);
  const reps = Number(args.reps ?? 3);
  const out = { variant: args.variant, bytes: text.length, resume_ms: [], first_body_ms: [], body_bytes: 0 };
  for (let i = 0; i < reps; ++i) {
    const opened = await openSession(args.variant);
    const now = stepNow(1000000);
    const t0 = performance.now();
    opened.session.call('session.resume', { config: CONFIG, rollout: new Uint8Array(text.buffer, text.byteOffset, text.length), now_ms: now });
    const t1 = performance.now();
    const r = opened.session.call('submit', { text: 'Continue.', now_ms: now + 1000 });
    const body = modelRequest(r.effects, 'submit after resume').body;
    const t2 = performance.now();
    out.resume_ms.push(t1 - t0);
    out.first_body_ms.push(t2 - t1);
    out.body_bytes = body.length;
    opened.close();
  }
  return out;
}

async function replay() {
  const dir = args.dir;
  if (!dir || !existsSync(dir)) return { variant: args.variant, skipped: `${dir} is absent` };
  const reps = Number(args.reps ?? 3);
  const opened = await openSession(args.variant);
  const files = [];
  const names = readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort();
  if (names.length) opened.engine.call('rollout.inspect', { text: readFileSync(join(dir, names[0])) }); // warm-up
  for (const name of names) {
    const text = readFileSync(join(dir, name));
    const row = { name: basename(name), bytes: text.length, ms: [], requests: 0, prompt_bytes: 0 };
    for (let i = 0; i < reps; ++i) {
      const t0 = performance.now();
      const r = opened.engine.call('rollout.inspect', { text: new Uint8Array(text.buffer, text.byteOffset, text.length) });
      row.ms.push(performance.now() - t0);
      row.requests = r.report.requests.length;
      row.prompt_bytes = r.report.summary.prompt_bytes;
    }
    files.push(row);
  }
  opened.close();
  return { variant: args.variant, files };
}

const command = process.argv[2];
const commands = { build, resume, replay };
if (!commands[command]) throw new Error(`usage: rollouts.mjs build|resume|replay --…`);
process.stdout.write(JSON.stringify(await commands[command]()) + '\n');
