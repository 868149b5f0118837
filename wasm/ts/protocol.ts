// SPDX-License-Identifier: MIT
// The wire shapes of the session API, to be read side by side with docs/protocol.md: config
// (docs/config.md), effects, deliveries, events, error and warning codes, the items they carry,
// the cache report and the query answers. Types only: the engine produces and checks these
// shapes; nothing here is validated again in JS.
// Conventions: wire keys and enum values are snake_case exactly as on the wire; optional fields
// are the ones that appear only when known or that have defaults.

// ---------------------------------------------------------------------------------------------
// Generated from core/protocol.json (scripts/gen_protocol.mjs): the enums, the config interfaces
// (docs/config.md), the warning and error-effect codes and the name lists.

import type {
  AgentsMdRefresh, CacheBreakReason, CacheTtl, DeliveryType, EffectType, ErrorEffectCode, EventType, Provider,
  ReplayCause as GeneratedReplayCause, SessionConfig, Trust, WarningCode,
} from './generated/protocol.js';

export type {
  AgentsMdConfig, AgentsMdRefresh, AnthropicConfig, ApprovalPolicy, CacheBreakReason, CacheTtl,
  ChatConfig, ChatDeveloperRole, CompactionConfig, CompactionStrategy,
  ContextBudgetConfig, DeliveryType, EffectType, EngineMethodName, EnvironmentConfig,
  EnvironmentContextConfig, EnvironmentStatus, ErrorEffectCode, EventType, HostToolConfig, InspectFormat,
  ModelConfig, PromptLayout, Provider, ReasoningConfig, ReasoningEffort, ReasoningSummary, SandboxConfig, SandboxMode, ServiceTier,
  SessionConfig, SessionMethodName, SessionMutationName, SkillConfig, TaskFrontierConfig, ToolPolicy,
  TruncationMode, TruncationPolicy, Trust, Verbosity, WarningCode,
} from './generated/protocol.js';
export {
  DELIVERY_TYPES, EFFECT_TYPES, ENGINE_METHODS, ENUM_VALUES, ERROR_EFFECT_CODES, EVENT_TYPES,
  SESSION_METHODS, SESSION_MUTATIONS, WARNING_CODES, WARNING_CODE_DOCS,
} from './generated/protocol.js';

/** True when A and B are the same set of literals (compile-time drift check). */
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** One candidate of the Anthropic breakpoint plan. */
export interface PlannedBreakpoint {
  at: 'tools' | 'system' | 'session_context' | 'newest_item';
  placed: boolean;
  /** end_of_tools | end_of_system | end_of_session_context | newest_history_item when placed;
   * else below_minimum | same_as_newest | no_tools | no_system | no_session_context | no_messages. */
  reason: string;
  ttl?: CacheTtl;
  prefix_tokens: number;
  message_index?: number;
}

/** An RFC 7386 merge patch: every field optional, `null` deletes, arrays replace whole. */
export type MergePatch<T> = {
  [K in keyof T]?: (T[K] extends readonly unknown[]
    ? T[K]
    : T[K] extends object | null | undefined
      ? MergePatch<NonNullable<T[K]>> | Exclude<T[K], undefined>
      : T[K]) | null;
};

/**
 * The `delta` of `update`: a merge patch over the config, validated as a whole;
 * a top-level `cwd` sets the primary environment's cwd.
 */
export type ConfigDelta = MergePatch<Omit<SessionConfig, 'session_id'>> & { cwd?: string };

// ---------------------------------------------------------------------------------------------
// Items: the Responses API objects history holds and bodies carry.

export interface InputTextPart { type: 'input_text'; text: string }
export interface OutputTextPart { type: 'output_text'; text: string }
export interface InputImagePart { type: 'input_image'; image_url: string; detail?: string }
export type ContentPart = InputTextPart | OutputTextPart | InputImagePart;

export interface MessageItem {
  type: 'message';
  id?: string;
  role: 'user' | 'assistant' | 'developer';
  content: ContentPart[];
}
export interface ReasoningItem {
  type: 'reasoning';
  id?: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: unknown[];
  encrypted_content?: string;
}
export interface FunctionCallItem {
  type: 'function_call';
  id?: string;
  name: string;
  /** The model's JSON arguments, verbatim. */
  arguments: string;
  call_id: string;
}
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | ContentPart[];
}
export interface CustomToolCallItem {
  type: 'custom_tool_call';
  id?: string;
  call_id: string;
  name: string;
  input: string;
}
export interface CustomToolCallOutputItem {
  type: 'custom_tool_call_output';
  call_id: string;
  output: string;
}
export interface CompactionItem {
  type: 'compaction';
  encrypted_content: string;
}
export type ResponseItem =
  | MessageItem | ReasoningItem | FunctionCallItem | FunctionCallOutputItem
  | CustomToolCallItem | CustomToolCallOutputItem | CompactionItem;

/** `item_done.origin` / history metadata: a world-state section id, or who produced the item. */
export type ItemOrigin =
  | 'user' | 'model' | 'tool' | 'compaction'
  | 'model_switch' | 'permissions' | 'developer_instructions' | 'agents_md' | 'skills'
  | 'environment' | 'tools'
  | (string & {});

// ---------------------------------------------------------------------------------------------
// Cache report.

export interface CacheBreak {
  reason: CacheBreakReason;
  /** `instructions`, `tools`, or the origin of the edited item. */
  section: string;
  item_index?: number;
  byte_offset: number;
  lost_tokens: number;
}

export interface CacheReport {
  request_id: string;
  prompt_bytes: number;
  prompt_tokens: number;
  shared_prefix_bytes: number;
  reuse_bp: number;
  max_reuse_bp: number;
  predicted_cached_tokens: number;
  ideal_cached_tokens: number;
  break: CacheBreak | null;
  /**
   * Provider `anthropic` only (docs/providers.md): the tokens the request is predicted to write
   * to the cache (beyond what it reads from the previous request's marks), and of those the ones
   * under 1 h marks. `predicted_cached_tokens` then follows the breakpoint plan too.
   */
  predicted_cache_write_tokens?: number;
  predicted_cache_write_1h_tokens?: number;
  /** Provider `anthropic` only: the request's breakpoint plan. */
  breakpoints?: PlannedBreakpoint[];
}

// ---------------------------------------------------------------------------------------------
// Events (docs/protocol.md#events): the `event` of an `{"type":"event"}` effect.

export interface TurnStartedEvent { type: 'turn_started'; turn_id: string }
export interface ItemDoneEvent { type: 'item_done'; item: ResponseItem; origin: ItemOrigin }
export interface TextDeltaEvent { type: 'text_delta'; request_id: string; delta: string }
export interface ReasoningDeltaEvent { type: 'reasoning_delta'; request_id: string; delta: string }
export interface TokenUsageEvent {
  type: 'token_usage';
  request_id: string;
  input_tokens: number;
  cached_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  total_tokens: number;
  context_tokens: number;
  context_window: number | null;
  /** Provider `anthropic` only: tokens written to the cache (priced 1.25x input, 2x for 1 h). */
  cache_creation_tokens?: number;
  /** Of `cache_creation_tokens`, the 1 h writes, when the provider's usage split them by TTL. */
  cache_creation_1h_tokens?: number;
}
export interface CacheReportEvent extends CacheReport { type: 'cache_report' }
export interface CompactionEvent {
  type: 'compaction';
  phase: 'started' | 'completed';
  trigger: 'pre_turn' | 'mid_turn' | 'manual' | 'model_switch';
  strategy: 'local' | 'remote';
  /** The prompt's token estimate before compacting. */
  tokens_before: number;
  /** `completed` only: estimate after, and the share freed in basis points. */
  tokens_after?: number;
  freed_bp?: number;
  /** Ours: set when the cold-cache rule decided a `pre_turn` compaction (the provider's cache
   * had expired and usage was above the soft limit), with the numbers it used. */
  reason?: 'cache_cold';
  idle_ms?: number;
  cache_ttl_ms?: number;
  context_tokens?: number;
  soft_limit_tokens?: number;
}
export interface InstructionsLoadedEvent { type: 'instructions_loaded'; sources: string[]; generation: number }
export interface WarningEvent { type: 'warning'; code: WarningCode | (string & {}); message: string }
/** The provider's own cache verdict beside the engine's reason (provider feature `cache_diagnostics`). */
export interface CacheDiagnosisEvent {
  type: 'cache_diagnosis';
  request_id: string;
  /** The provider's diagnostics object, verbatim. */
  provider: unknown;
  provider_reason: string;
  engine_reason: string | null;
  verdict: 'agrees' | 'differs' | 'unavailable';
}
/** The cache has outlived its TTL: the next request's input cost, cold and warm. */
export interface CacheColdEvent {
  type: 'cache_cold';
  trigger: 'resume' | 'turn_start';
  idle_ms: number;
  cache_ttl_ms: number;
  prompt_tokens: number;
  cost_usd: number;
  warm_cost_usd: number;
  prewarm: boolean;
}
/** The provider cleared earlier tool uses (Anthropic context editing). */
export interface ContextEditEvent {
  type: 'context_edit';
  request_id: string;
  cleared_tool_uses: number;
  cleared_input_tokens: number;
  lost_tokens: number;
}

export type AgentctxEvent =
  | TurnStartedEvent | ItemDoneEvent | TextDeltaEvent | ReasoningDeltaEvent | TokenUsageEvent
  | CacheReportEvent | CompactionEvent | InstructionsLoadedEvent | WarningEvent
  | CacheDiagnosisEvent | CacheColdEvent | ContextEditEvent;

// ---------------------------------------------------------------------------------------------
// Effects, in their fixed order (docs/protocol.md): persist, events, error, tool_calls,
// model_request, turn_complete.

export interface ModelRequestEffect {
  type: 'model_request';
  /** `req-<n>`; a retry keeps the id and increments `attempt`. */
  id: string;
  /** `prewarm`: a request that only writes the provider's cache (its answer adds no items). */
  purpose: 'turn' | 'compact' | 'prewarm';
  /** POST `{base}/<endpoint>`: SSE for every endpoint but `responses/compact` (JSON). */
  endpoint: 'responses' | 'responses/compact' | 'chat/completions' | 'messages';
  attempt: number;
  /** The exact JSON bytes to send, unchanged (fetch sends a Uint8Array as is). */
  body: Uint8Array;
  /** The same body as text, decoded on first use (not enumerable). */
  readonly bodyText: string;
  /** HTTP headers the body needs besides the host's own (e.g. `anthropic-beta`); absent when none. */
  headers?: Readonly<Record<string, string>>;
}
export interface ToolCallEffect {
  type: 'tool_call';
  call_id: string;
  /** The advertised name, e.g. `mcp__git__status`. */
  name: string;
  server?: string;
  tool?: string;
  /** The model's JSON arguments, verbatim. */
  arguments: string;
}
export interface PersistEffect {
  type: 'persist';
  /** Rollout lines without a trailing LF: write each + LF, in order, before acting on later effects. */
  lines: string[];
}
export interface EventEffect { type: 'event'; event: AgentctxEvent }
export interface ErrorEffect {
  type: 'error';
  code: ErrorEffectCode;
  message: string;
  /** True: the turn is suspended until `retry(request_id)` or `interrupt()`. */
  retryable: boolean;
  request_id?: string;
  retry_after_ms?: number;
}
export interface TurnCompleteEffect {
  type: 'turn_complete';
  turn_id: string;
  reason: 'completed' | 'interrupted' | 'failed';
  last_agent_message?: string;
}
export type Effect =
  | ModelRequestEffect | ToolCallEffect | PersistEffect | EventEffect | ErrorEffect | TurnCompleteEffect;

/** What every mutating call answers. */
export interface EffectsResult { effects: Effect[] }

// ---------------------------------------------------------------------------------------------
// Deliveries (docs/protocol.md#deliveries): the `delivery` of `deliver`.

/** A body that crossed the boundary as raw bytes, with its text decoded on first use. */
export interface BodyBytes {
  body: Uint8Array;
  readonly bodyText: string;
}

export interface ModelEventsDelivery {
  type: 'model_events';
  request_id: string;
  /**
   * Raw SSE, split anywhere (bytes may split inside a character; they cross as raw bytes): text,
   * or bytes in any form (a Uint8Array, an ArrayBuffer such as `await res.arrayBuffer()`, a DataView).
   */
  sse?: string | Uint8Array | ArrayBuffer | ArrayBufferView;
  /** Already-parsed events (skips SSE framing). */
  events?: Record<string, unknown>[];
  /** The stream ended (after `response.completed` this is a no-op). */
  end?: boolean;
}
export interface ModelResponseDelivery {
  type: 'model_response';
  request_id: string;
  /** The JSON answer of `responses/compact` (text, or bytes in any form as for `sse`). */
  body: string | Uint8Array | ArrayBuffer | ArrayBufferView;
}
export interface ModelErrorDelivery {
  type: 'model_error';
  request_id: string;
  /** HTTP status; absent = network error. */
  status?: number;
  body?: string;
  message?: string;
}
/** A tool's answer: text, or `input_text` / `input_image` parts. */
export type ToolOutput = string | (InputTextPart | InputImagePart)[];
export interface ToolOutputDelivery { type: 'tool_output'; call_id: string; output: ToolOutput }
export type ModelDelivery = ModelEventsDelivery | ModelResponseDelivery | ModelErrorDelivery;
export type Delivery = ModelDelivery | ToolOutputDelivery;

// ---------------------------------------------------------------------------------------------
// Method inputs (docs/protocol.md). `now_ms` is the host's clock (never goes backwards; default 0).

export interface SubmitInput {
  text: string;
  images?: { image_url: string }[];
  /** Default `turn-<n>`. */
  turn_id?: string;
  now_ms?: number;
}

// ---------------------------------------------------------------------------------------------
// Query answers.

export interface HistoryEntry { item: ResponseItem; turn_id: string; origin: ItemOrigin }

export interface SessionStats {
  items: number;
  /** Distinct items serialised: does not grow with the number of requests. */
  items_serialized: number;
  requests: number;
  turns: number;
  /** Completed compactions (history replaced). */
  compactions: number;
}

export interface CacheSummary {
  requests: number;
  prompt_bytes: number;
  shared_prefix_bytes: number;
  max_shared_prefix_bytes: number;
  predicted_cached_tokens: number;
  ideal_cached_tokens: number;
  reported_cached_tokens: number;
  reuse_bp: number;
  max_reuse_bp: number;
  /** By reason (sorted): how often and how many tokens were lost. */
  breaks: Partial<Record<CacheBreakReason, { count: number; lost_tokens: number }>>;
  /** Once a request was predicted by Anthropic's breakpoint rule. */
  predicted_cache_write_tokens?: number;
  predicted_cache_write_1h_tokens?: number;
  reported_cache_write_tokens?: number;
  /** With `cache_summary {prices}`: the cost, each request by its provider's rule. */
  cost?: CacheCost;
}

/** Prices in USD per million tokens (at most 6 decimals), as `rollout.inspect` and `cache_summary` take them. */
export interface TypedPrices {
  input?: number;
  /** OpenAI's cached-input price (default 0.125); Anthropic's reads cost 0.1 × input unless given. */
  cached_input?: number;
  /** Anthropic's cache writes (default 1.25 × input; 2 × input for 1 h marks); at least `input`. */
  cache_write?: number;
  output?: number;
}

/** `cache_summary {prices}`'s cost (docs/providers.md): exact decimals of USD. */
export interface CacheCost {
  /** The rules the requests were priced by (the session's before any request). */
  pricing: 'openai' | 'anthropic' | 'mixed';
  prices_per_million_usd: {
    input: number; cached_input?: number; cache_read?: number; cache_write?: number; cache_write_1h?: number; output: number;
  };
  /** Every request's prompt tokens at the explainer's prediction. */
  predicted_input_usd: number;
  /** The provider's usage (token_usage), priced. */
  reported: {
    input_tokens: number; cached_tokens: number; cache_write_tokens: number; output_tokens: number;
    input_usd: number; output_usd: number; total_usd: number;
  };
}

/** One stat the AGENTS.md probe set re-checks (docs/agents-md-refresh.md). */
export interface AgentsProbe {
  fs: string;
  path: string;
  role: string;
  state: 'absent' | 'present' | 'error';
  kind?: string;
  size?: number;
  mtime_ms?: number;
  error?: string;
}

/** `inspect {"format":"agents"}`: the AGENTS.md manager's state (docs/agents-md-refresh.md). */
export interface AgentsInspect {
  refresh: AgentsMdRefresh;
  /** What the last refresh found: `hit`, `miss` (key changed), `probe_changed`, `failed`, `none`. */
  cache: 'none' | 'hit' | 'miss' | 'probe_changed' | 'failed';
  generation: number;
  loaded_generation: number;
  text: string | null;
  fragment: string | null;
  sources: { path: string; environment_id: string; cwd: string; global: boolean }[];
  warnings: { code: string; message: string }[];
  error: { code: string; message: string } | null;
  key: {
    environments: { id: string; cwd: string; fs: string; sandboxed: boolean; fs_epoch: number }[];
    trust: Trust;
    agents_md: Record<string, unknown>;
  } | null;
  probes: AgentsProbe[];
}

/** Why uncached input tokens were not cached (docs/replay.md); generated from core/protocol.json. */
export type ReplayCause = GeneratedReplayCause;

/**
 * One request of a replayed rollout (docs/replay.md): reconstructed before a run of model output,
 * or usage-only (`reconstructed: false`, prompt fields null). Usage fields are null without usage;
 * `lost_tokens_by_cause` adds up to `uncached_input_tokens`.
 */
export interface ReplayRequest {
  request_id: string;
  /** 1-based line of its first model-output item (of its usage line when usage-only). */
  line: number;
  /** When it was sent (its last input line), else when it finished. */
  time: string | null;
  model: string;
  reconstructed: boolean;
  /** A compaction replaced history since the previous reconstructed request. */
  after_compaction: boolean;
  input_items: number | null;
  prompt_bytes: number | null;
  prompt_tokens: number | null;
  shared_prefix_bytes: number | null;
  reuse_bp: number | null;
  max_reuse_bp: number | null;
  /** Provider tokens when usage is known (≤ input), else estimated from the prompt bytes. */
  predicted_cached_tokens: number | null;
  ideal_cached_tokens: number | null;
  /** The client-side break; `lost_tokens` is its share of the lost tokens. */
  break: CacheBreak | null;
  input_tokens: number | null;
  cached_input_tokens: number | null;
  /** Anthropic pricing only (`summary.pricing`): the tokens written to the cache (in input). */
  cache_write_input_tokens?: number | null;
  output_tokens: number | null;
  uncached_input_tokens: number | null;
  new_input_tokens: number | null;
  lost_tokens: number | null;
  cause: ReplayCause | null;
  cause_section: string | null;
  lost_tokens_by_cause: Partial<Record<ReplayCause, number>> | null;
  gap_ms: number | null;
  cost_usd: number | null;
  lost_cost_usd: number | null;
}

export interface ReplayTokenTotals {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
}

/** `rollout.inspect`: the replay of an agentctx or Codex rollout (docs/replay.md). */
export interface ReplayReport {
  session_id: string | null;
  cli_version: string | null;
  lines: number;
  warnings: { code: string; message: string }[];
  summary: Omit<CacheSummary, 'reported_cached_tokens'> & {
    usage_only_requests: number;
    compactions: number;
    unrebuilt_compactions: number;
    usage_source: 'token_usage_record' | 'token_count' | 'none';
    repeated_usage_lines: number;
    requests_with_usage: number;
    input_tokens: number;
    cached_input_tokens: number;
    /** Anthropic pricing only: the cache writes of every request. */
    cache_write_input_tokens?: number;
    /** Anthropic pricing, when the rollout records 1 h writes: of the writes, the 1 h ones. */
    cache_write_1h_input_tokens?: number;
    output_tokens: number;
    reasoning_output_tokens: number;
    reported_cached_bp: number;
    uncached_input_tokens: number;
    new_input_tokens: number;
    lost_tokens: number;
    /** Adds up to `uncached_input_tokens`. */
    lost_tokens_by_cause: Partial<Record<ReplayCause, number>>;
    rollout_total_token_usage: ReplayTokenTotals | null;
    usage_matches_rollout_total: boolean | null;
    ttl_ms: number;
    /** Present when Anthropic's cache rules and prices applied (absent: OpenAI's). */
    pricing?: 'anthropic';
    /** `cached_input` is the price of a cache read (Anthropic: 0.1 × input by default). */
    prices_per_million_usd: { input: number; cached_input: number; cache_write?: number; cache_write_1h?: number; output: number };
    cost: {
      cached_input_usd: number;
      /** Every uncached token at the input price, cache writes included. */
      uncached_input_usd: number;
      /** Anthropic pricing only: the writes' premium over the input price. */
      cache_write_extra_usd?: number;
      output_usd: number;
      total_usd: number;
      by_cause_usd: Partial<Record<ReplayCause, number>>;
      lost_extra_usd: number;
    };
  };
  requests: ReplayRequest[];
}

/** The options of `rollout.inspect`; absent ones keep their defaults. */
export interface ReplayOptions {
  /** The provider's cache TTL (default 300000). */
  ttl_ms?: number;
  /** USD per million tokens (defaults 1.25 / 0.125 / 10), at most 6 decimals. */
  prices?: TypedPrices;
  /**
   * Whose cache rules and prices apply: `anthropic` reads at 0.1 × input and writes at
   * 1.25 × input (2 × for writes recorded as 1 h ones; `prices.cache_write` replaces both);
   * unset: anthropic when the rollout's usage records cache writes, else OpenAI's (responses,
   * chat).
   */
  provider?: Provider;
  /** Also return `dump`: every reconstructed request's body. */
  dump_requests?: boolean;
  /** The table lists every request. */
  requests?: boolean;
  /** How many top misses the table lists (default 10). */
  top?: number;
}

/** The request dump: each distinct item once (JSON text); a request's input is its ranges. */
export interface ReplayDump {
  items: string[];
  requests: { request_id: string; model: string; instructions?: string; input: [number, number][] }[];
}

// ---------------------------------------------------------------------------------------------
// Drift checks: the hand-written shapes above name exactly the types the description lists.
// A mismatch fails the package build (tsc), so a new effect, event or delivery in
// core/protocol.json must get its shape here.

export const PROTOCOL_SHAPES_MATCH: {
  effects: SameNames<Effect['type'], EffectType>;
  events: SameNames<AgentctxEvent['type'], EventType>;
  deliveries: SameNames<Delivery['type'], DeliveryType>;
} = { effects: true, events: true, deliveries: true };
