// SPDX-License-Identifier: MIT
// What `resume` continues with: the settings the rollout's last turn_context recorded (rollout.ts
// recordedSettings) become a config layer under the --config file and the flags, and any of them
// that a flag or the --config file changes is said in one line on stderr.
// Invariants:
//  - Precedence on resume: CLI flags > the --config file > the rollout > the CLI defaults.
//  - Only what the rollout records is continued (model, provider, base URL, explicit provider
//    features, reasoning effort and summary); the API key never is: it comes from the
//    environment, as for `run`.
//  - A base URL taken from a rollout outside the home (a file someone else may have written) is
//    not sent the API key unless the user names that URL again (--base-url or --config): a
//    rollout cannot send the key somewhere the user never chose.
import { MOCK_SLUG, isObject, modelSlug } from './config.js';
import type { JsonObject } from './config.js';
import type { RecordedSettings } from './rollout.js';

/** The engine config keys of what the rollout recorded (a layer under the --config file). */
export function recordedConfig(r: RecordedSettings): JsonObject {
  const out: JsonObject = {};
  if (r.model !== undefined) out['model'] = { slug: r.model };
  if (r.provider !== undefined) out['provider'] = r.provider;
  if (r.baseUrl !== undefined) out['base_url'] = r.baseUrl;
  if (r.features !== undefined) out['provider_features'] = { ...r.features };
  const reasoning: JsonObject = {};
  if (r.effort !== undefined) reasoning['effort'] = r.effort;
  if (r.summary !== undefined) reasoning['summary'] = r.summary;
  if (Object.keys(reasoning).length > 0) out['reasoning'] = reasoning;
  return out;
}

/** Where a setting that differs from the rollout came from: its flag, else the --config file. */
export interface OverrideSources {
  model?: string | undefined;
  provider?: string | undefined;
  baseUrl?: string | undefined;
  features?: Record<string, boolean> | undefined;
  config?: string | undefined;
}

const OFFICIAL = "the provider's official endpoint";

function baseUrlOf(config: JsonObject): string | undefined {
  return typeof config['base_url'] === 'string' ? config['base_url'] : undefined;
}

function reasoningOf(config: JsonObject, key: 'effort' | 'summary'): string | undefined {
  const r = config['reasoning'];
  const v = isObject(r) ? r[key] : undefined;
  return typeof v === 'string' && !(key === 'summary' && v === 'none') ? v : undefined;
}

/**
 * The one line that says which recorded settings the flags or the --config file changed, e.g.
 * `agentctx: resuming with --model gpt-5.5 (the session used mock)`; undefined when none did.
 */
export function overrideLine(r: RecordedSettings, config: JsonObject, flags: OverrideSources): string | undefined {
  const parts: string[] = [];
  const say = (flag: string, flagGiven: boolean, now: string, was: string): void => {
    const what = flagGiven ? `--${flag} ${now}` : `${flag} ${now} from --config ${flags.config ?? ''}`.trimEnd();
    parts.push(`${what} (the session used ${was})`);
  };
  const model = modelSlug(config);
  if (r.model !== undefined && model !== r.model) say('model', flags.model !== undefined, model, r.model);
  const provider = typeof config['provider'] === 'string' ? config['provider'] : 'responses';
  if (provider !== (r.provider ?? 'responses')) say('provider', flags.provider !== undefined, provider, r.provider ?? 'responses');
  const url = baseUrlOf(config);
  const noUrl = (slug: string | undefined): string => (slug === MOCK_SLUG ? 'none (the embedded mock)' : OFFICIAL);
  if (url !== r.baseUrl) say('base-url', flags.baseUrl !== undefined, url ?? noUrl(model), r.baseUrl ?? noUrl(r.model));
  const features = isObject(config['provider_features']) ? config['provider_features'] : {};
  const names = new Set([...Object.keys(r.features ?? {}), ...Object.keys(features)]);
  for (const name of [...names].sort()) {
    const now = typeof features[name] === 'boolean' ? (features[name] ? 'on' : 'off') : 'automatic';
    const recorded = r.features?.[name];
    const was = recorded === undefined ? 'automatic' : recorded ? 'on' : 'off';
    if (now !== was) say('feature', flags.features?.[name] !== undefined, `${name}=${now}`, `${name}=${was}`);
  }
  for (const key of ['effort', 'summary'] as const) {
    const now = reasoningOf(config, key);
    if (now !== r[key]) say(`reasoning.${key}`, false, now ?? 'unset', r[key] ?? 'unset');
  }
  return parts.length === 0 ? undefined : `agentctx: resuming with ${parts.join(', ')}`;
}

/**
 * True when the session's base URL is the one a rollout from outside the home recorded, and
 * the user did not name it again: the API key is not sent there (module invariants).
 */
export function urlOnlyFromForeignRollout(r: RecordedSettings, config: JsonObject, fileConfig: JsonObject,
                                          flags: OverrideSources, ownRollout: boolean): boolean {
  if (ownRollout || r.baseUrl === undefined || flags.baseUrl !== undefined) return false;
  if (typeof fileConfig['base_url'] === 'string') return false;
  return baseUrlOf(config) === r.baseUrl;
}
