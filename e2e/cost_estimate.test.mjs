// SPDX-License-Identifier: MIT
// The playground's cost estimate (web/chart.js) by each provider's rule, without a browser:
// OpenAI requests at the cached-input price, with the writes GPT-5.6+ report at 1.25x the input
// price; Anthropic requests with reads at 0.1x, 5-minute writes at 1.25x and 1-hour writes at 2x
// the input price — the engine's rule (core/src/provider/cache/cache_pricing.h), so the
// playground and `cache_summary {prices}` agree; and the replay view's write premium
// (web/replay_view.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { estimateCost, pricingRule, pricingRuleText } from '../web/chart.js';
import { writePremiumTokens } from '../web/replay_view.js';

const prices = { input: 3, cached: 0.5, output: 15 };
const close = (a, b) => assert.ok(Math.abs(a - b) < 1e-12, `${a} vs ${b}`);

test('estimateCost: OpenAI requests use the cached-input price, no writes', () => {
  const { withCache, without } = estimateCost([{ input: 2000, cached: 1024 }], prices, 10);
  close(withCache, (976 * 3 + 1024 * 0.5 + 10 * 15) / 1e6);
  close(without, (2000 * 3 + 10 * 15) / 1e6);
  assert.equal(pricingRule([{ input: 1, cached: 0 }]), 'openai');
});

test('estimateCost: Anthropic writes split by TTL are priced 1.25x and 2x the input', () => {
  // 5000 input: 1000 read, 3000 written (1200 of them for 1 h), 1000 uncached.
  const series = [{ input: 5000, cached: 1000, write: 3000, write_1h: 1200, rule: 'anthropic' }];
  const expected = 1000 * 3 + 1000 * 0.3 + 1800 * 3.75 + 1200 * 6;
  close(estimateCost(series, prices, 0).withCache, expected / 1e6);
  // Without a split every write is a 5-minute one; a 1-hour count over the writes is clamped.
  close(estimateCost([{ ...series[0], write_1h: undefined }], prices, 0).withCache,
    (1000 * 3 + 1000 * 0.3 + 3000 * 3.75) / 1e6);
  close(estimateCost([{ ...series[0], write_1h: 9999 }], prices, 0).withCache,
    (1000 * 3 + 1000 * 0.3 + 3000 * 6) / 1e6);
  assert.equal(pricingRule(series), 'anthropic');
  assert.match(pricingRuleText('anthropic'), /cache writes at 1\.25× the input price \(2× for 1-hour writes/);
});

test('estimateCost: a mixed session prices each request by its own rule', () => {
  const series = [{ input: 2000, cached: 1024 }, { input: 5000, cached: 1000, write: 3000, write_1h: 0, rule: 'anthropic' }];
  close(estimateCost(series, prices, 0).withCache, (976 * 3 + 1024 * 0.5 + 1000 * 3 + 1000 * 0.3 + 3000 * 3.75) / 1e6);
  assert.equal(pricingRule(series), 'mixed');
});

test('estimateCost: OpenAI writes (GPT-5.6+) at 1.25x the input, reads at the cached-input price', () => {
  // 5000 input: 1000 read, 3000 written, 1000 uncached.
  const series = [{ input: 5000, cached: 1000, write: 3000, rule: 'openai' }];
  close(estimateCost(series, prices, 0).withCache, (1000 * 3 + 1000 * 0.5 + 3000 * 3.75) / 1e6);
  // Writes never exceed the uncached input; a 1-hour count does not change OpenAI's price.
  close(estimateCost([{ ...series[0], write: 9999, write_1h: 500 }], prices, 0).withCache, (1000 * 0.5 + 4000 * 3.75) / 1e6);
  assert.equal(pricingRule(series), 'openai');
  assert.match(pricingRuleText('openai'), /cache writes \(reported by GPT-5\.6 and later\) at 1\.25× the input price/);
  // A session of both providers: writes by each request's own rule.
  const mixed = [...series, { ...series[0], rule: 'anthropic' }];
  close(estimateCost(mixed, prices, 0).withCache, (1000 * 3 + 1000 * 0.5 + 3000 * 3.75 + 1000 * 3 + 1000 * 0.3 + 3000 * 3.75) / 1e6);
  assert.equal(pricingRule(mixed), 'mixed');
});

test('writePremiumTokens: the replay view prices 1-hour writes at 2x, the rest at 1.25x', () => {
  const anthropic = { pricing: 'anthropic' };
  assert.equal(writePremiumTokens({ ...anthropic, cache_write_input_tokens: 5600 }), 5600 * 0.25);
  assert.equal(writePremiumTokens({ ...anthropic, cache_write_input_tokens: 5600, cache_write_1h_input_tokens: 400 }), 5200 * 0.25 + 400);
  assert.equal(writePremiumTokens({ ...anthropic, cache_write_input_tokens: 600, cache_write_1h_input_tokens: 900 }), 600);  // clamped
  // OpenAI's rule (GPT-5.6+ writes): 0.25 each, no 1-hour rate.
  assert.equal(writePremiumTokens({ pricing: 'openai', cache_write_input_tokens: 5600, cache_write_1h_input_tokens: 400 }), 5600 * 0.25);
});
