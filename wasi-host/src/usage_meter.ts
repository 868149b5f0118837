// SPDX-License-Identifier: MIT
// What a session has used, for the terminal: the tokens of each turn and of the session (from the
// engine's `token_usage` events), the context the last response left, and their cost at the
// session's prices; the one line after each turn and the REPL's /status (docs/cli.md).
// Invariants:
//  - Costs come from the engine (`cache_summary {prices}`, each request priced by its provider's
//    cache rule): the host holds no price table. The prices are the config's `cache_prices`;
//    without them there is no cost, and the line says so instead of guessing one.
//  - Counting only: nothing here changes the session; a query that fails costs nothing but the cost.
import type { Effect } from './driver.js';
import { isObject } from './config.js';
import type { JsonObject } from './config.js';

export interface TokenTotals {
  /** Responses that reported usage. */
  requests: number;
  /** Every input token, cached and written ones included. */
  input: number;
  cached: number;
  /** Written to the provider's cache (cache_creation_tokens; 0 where the provider reports none). */
  written: number;
  output: number;
}

const zero = (): TokenTotals => ({ requests: 0, input: 0, cached: 0, written: 0, output: 0 });

/** Sums the `token_usage` events of the turn being driven and of the session. */
export class UsageMeter {
  turn: TokenTotals = zero();
  readonly session: TokenTotals = zero();
  /** Turns that had at least one response with usage. */
  turns = 0;
  /** Context tokens after the last response, and the window (null: the config sets none). */
  context: { tokens: number; window: number | null } | undefined;

  startTurn(): void {
    this.turn = zero();
  }

  /** Counts `effect` when it is a token_usage event. */
  observe(effect: Effect): void {
    if (effect.type !== 'event' || effect.event.type !== 'token_usage') return;
    const e = effect.event as unknown as Record<string, unknown>;
    const n = (key: string): number => (typeof e[key] === 'number' ? (e[key] as number) : 0);
    if (this.turn.requests === 0) this.turns += 1;
    for (const t of [this.turn, this.session]) {
      t.requests += 1;
      t.input += n('input_tokens');
      t.cached += n('cached_tokens');
      t.written += n('cache_creation_tokens');
      t.output += n('output_tokens');
    }
    this.context = { tokens: n('context_tokens'), window: typeof e['context_window'] === 'number' ? e['context_window'] : null };
  }
}

/** 1234567 → "1,234,567". */
export function grouped(n: number): string {
  return n.toLocaleString('en-US');
}

/** USD with four decimals, "<$0.0001" for a cost too small to show. */
export function usd(amount: number): string {
  if (amount > 0 && amount < 0.00005) return '<$0.0001';
  return `$${amount.toFixed(4)}`;
}

/** The session's prices (config `cache_prices`), or undefined when it sets none. */
export function sessionPrices(config: JsonObject): JsonObject | undefined {
  const prices = config['cache_prices'];
  return isObject(prices) ? prices : undefined;
}

/**
 * The session's cost so far in USD, as the engine prices its requests (`cache_summary`);
 * undefined without prices or when the engine refuses them.
 */
export function sessionCost(query: (method: string, input: Record<string, unknown>) => unknown, config: JsonObject): number | undefined {
  const prices = sessionPrices(config);
  if (prices === undefined) return undefined;
  try {
    const summary = query('cache_summary', { prices }) as { cost?: { reported?: { total_usd?: unknown } } };
    const total = summary.cost?.reported?.total_usd;
    return typeof total === 'number' ? total : undefined;
  } catch {
    return undefined;
  }
}

/** Why a session shows no cost: its model has no prices here. */
export function noPricesText(model: string): string {
  return `no prices for ${model || 'this model'} (set cache_prices in --config)`;
}

function tokensText(t: TokenTotals): string {
  return `${grouped(t.input)} input tokens (${grouped(t.cached)} cached, ${grouped(t.written)} written), ${grouped(t.output)} output`;
}

/** The line after a turn: its tokens and cost, and the session's. */
export function turnLine(turn: TokenTotals, cost: { turn: number; session: number } | undefined, model: string): string {
  const price = cost === undefined ? noPricesText(model) : `cost ${usd(cost.turn)}, session ${usd(cost.session)}`;
  return `• turn: ${tokensText(turn)}; ${price}`;
}

/** The REPL's /status: model and provider, context used and left, session tokens and cost. */
export function statusText(facts: {
  model: string; provider: string; endpoint: string; meter: UsageMeter; cost: number | undefined;
}): string {
  const { meter } = facts;
  const c = meter.context;
  let context: string;
  if (c === undefined) {
    context = 'no response yet in this process';
  } else if (c.window === null || c.window <= 0) {
    context = `${grouped(c.tokens)} tokens used; window unknown (set model.context_window in --config)`;
  } else {
    const left = Math.max(0, c.window - c.tokens);
    context = `${grouped(c.tokens)} of ${grouped(c.window)} tokens used, ${grouped(left)} left ` +
      `(${Math.floor((100 * left) / c.window)}%)`;
  }
  const turns = `${meter.turns} ${meter.turns === 1 ? 'turn' : 'turns'}`;
  const cost = facts.cost === undefined ? noPricesText(facts.model) : `cost ${usd(facts.cost)}`;
  return [
    `model     ${facts.model} (provider ${facts.provider}, ${facts.endpoint})`,
    `context   ${context}`,
    `session   ${turns}, ${tokensText(meter.session)}; ${cost}`,
    '',
  ].join('\n');
}
