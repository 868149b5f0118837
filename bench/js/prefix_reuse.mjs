#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// P1/P2: byte-prefix reuse and simulated cached-token share over the 200-request
// script of scenario.mjs, agentctx vs the naive harness vs the theoretical maximum.
//  - Prompt bytes P of a request, as the cache explainer sees it: J(instructions) ‖ J(tools) ‖
//    J(item₁) ‖ … of its body, recomputed here from the body bytes (canonical JSON re-serialises
//    to the same bytes).
//  - shared_k = longest common byte prefix of P_{k−1} and P_k; the theoretical maximum reuses
//    all of the previous prompt: max_k = min(|P_{k−1}|, |P_k|). P1 = Σ shared / Σ max, and the
//    requests where shared < max (with the engine's cache_report reason for agentctx).
//  - P2: every body goes to `mock.respond` of a separate engine per variant (its prompt-cache
//    simulator, at the request's simulated time); cached share = Σ cached_tokens /
//    Σ input_tokens of its response.completed usage; the maximum is Σ cacheable(max_k / 4).
//  - Cross-check: agentctx's own cache_report (prompt_bytes, shared_prefix_bytes) must equal
//    the figures recomputed here; mismatches are listed.
// Prints one JSON object: {requests, agentctx: {...}, naive: {...}, events, mismatches}
// (`--scale=0.25` runs the short script of the smoke; `--rows` keeps the per-request rows).
import { loadPackage } from './workload.mjs';
import { eventRequests, requestCount, runAgentctx, runNaive, scaledScenario } from './scenario.mjs';

const decoder = new TextDecoder();

/** cacheable(t): 0 under 1024 tokens, else 1024 + 128·k (prompt/prompt_bytes.h's Cacheable). */
export const cacheable = (t) => (t < 1024 ? 0 : 1024 + 128 * Math.floor((t - 1024) / 128));

/** The prompt segments of a body: [J(instructions) or '', J(tools), J(item)…]. */
export function promptSegments(bodyBytes) {
  const body = JSON.parse(decoder.decode(bodyBytes));
  const segs = [body.instructions === undefined || body.instructions === '' ? '' : JSON.stringify(body.instructions), JSON.stringify(body.tools ?? [])];
  for (const item of body.input ?? []) segs.push(JSON.stringify(item));
  return { model: body.model, key: body.prompt_cache_key ?? '', segs, bytes: segs.map((s) => Buffer.from(s)) };
}

const total = (p) => p.bytes.reduce((a, b) => a + b.length, 0);

/** Longest common byte prefix of two segmented prompts. */
export function sharedPrefix(a, b) {
  let shared = 0;
  for (let i = 0; i < Math.min(a.bytes.length, b.bytes.length); ++i) {
    const x = a.bytes[i];
    const y = b.bytes[i];
    if (x.equals(y)) {
      shared += x.length;
      continue;
    }
    const n = Math.min(x.length, y.length);
    let j = 0;
    while (j < n && x[j] === y[j]) ++j;
    return shared + j;
  }
  return shared;
}

function usageOf(sse) {
  const line = sse.split('\n').find((l) => l.startsWith('data: ') && l.includes('"response.completed"'));
  if (!line) throw new Error('mock.respond answered without response.completed');
  const usage = JSON.parse(line.slice(6)).response.usage;
  return { input: usage.input_tokens, cached: usage.input_tokens_details?.cached_tokens ?? 0 };
}

/** Collects one variant's requests and measures them. */
async function measure(run) {
  const pkg = await loadPackage();
  const cache = await pkg.createEngine(); // its mock model's simulator sees only this variant
  const rows = [];
  let prev = null;
  await run(({ n, purpose, body, now, cacheReport }) => {
    const p = promptSegments(body);
    const size = total(p);
    const shared = prev && prev.model === p.model && prev.key === p.key ? sharedPrefix(prev, p) : 0;
    const max = prev ? Math.min(total(prev), size) : 0;
    const mock = usageOf(cache.call('mock.respond', { endpoint: 'responses', body, now_ms: now }).body);
    rows.push({
      n, purpose, body_bytes: body.length, prompt_bytes: size, shared, max,
      input_tokens: mock.input, cached_tokens: mock.cached, ideal_cached_tokens: cacheable(Math.floor(max / 4)),
      report: cacheReport && {
        prompt_bytes: cacheReport.prompt_bytes, shared: cacheReport.shared_prefix_bytes,
        reason: cacheReport.break?.reason ?? null,
      },
    });
    prev = p;
  });
  cache.dispose();
  const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
  const misses = rows.filter((r) => r.n > 1 && r.shared < r.max).map((r) => ({
    n: r.n, purpose: r.purpose, shared: r.shared, max: r.max, lost_bytes: r.max - r.shared,
    reason: r.report?.reason ?? null,
  }));
  return {
    requests: rows.length,
    body_bytes: sum('body_bytes'),
    prompt_bytes: sum('prompt_bytes'),
    shared_bytes: sum('shared'),
    max_shared_bytes: sum('max'),
    reuse: sum('shared') / sum('prompt_bytes'),
    max_reuse: sum('max') / sum('prompt_bytes'),
    p1: sum('shared') / sum('max'),
    input_tokens: sum('input_tokens'),
    cached_tokens: sum('cached_tokens'),
    ideal_cached_tokens: sum('ideal_cached_tokens'),
    cached_share: sum('cached_tokens') / sum('input_tokens'),
    ideal_cached_share: sum('ideal_cached_tokens') / sum('input_tokens'),
    misses,
    rows,
  };
}

/** P1/P2 over the script at `scale` (1 = the 200-request session). */
export async function prefixReuse(scale = 1) {
  const script = scaledScenario(scale);
  const agentctx = await measure((cb) => runAgentctx(cb, script));
  const naive = await measure((cb) => runNaive(cb, script));
  const mismatches = agentctx.rows
    .filter((r) => r.report && (r.report.prompt_bytes !== r.prompt_bytes || (r.n > 1 && r.report.shared !== r.shared)))
    .map((r) => ({ n: r.n, ours: { prompt_bytes: r.prompt_bytes, shared: r.shared }, engine: r.report }));
  return { requests: requestCount(script), agentctx, naive, events: eventRequests(script), mismatches };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scale = Number(process.argv.find((a) => a.startsWith('--scale='))?.slice(8) ?? 1);
  const result = await prefixReuse(scale);
  if (!process.argv.includes('--rows')) {
    delete result.agentctx.rows;
    delete result.naive.rows;
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}
