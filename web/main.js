// SPDX-License-Identifier: MIT
// Playground entry: loads the `agentctx` package (import map), owns the app state and the one
// session, and wires the panels. Every model request goes through runTurn with the mock model
// (offline, default) or, when the session's provider has an API key typed in, that provider's
// API. Keys are kept one per provider account — OpenAI (Responses and Chat Completions) and
// Anthropic — so a key is only ever sent to the provider it was typed for. They live only in
// memory (`app.apiKeys` and the password field, relabelled per provider): never in storage,
// never in rollouts (they hold engine output only), never in a URL or a log.
// Panels subscribe to topics: files, config, request, usage, turn, rollout, reset, busy,
// tool-output (a tool call's output was recorded: the model may have changed files), diagnosis
// (a request got the provider's cache verdict).
import {
  AgentctxError, anthropicMessagesClient, chatCompletionsClient, createEngine, createMemoryFileSystem, mockModelClient,
  openAIResponsesClient, runTurn,
} from 'agentctx';

import { DEMO_FILES, FS_NAME, defaultConfig } from './demo.js';
import { attachTracker } from './tracker.js';
import { $, mergePatch } from './util.js';
import * as chat from './chat.js';
import * as workspace from './workspace.js';
import * as settings from './settings.js';
import * as inspector from './inspector.js';
import * as cache from './cache_view.js';
import * as world from './world.js';
import * as agents from './agents.js';
import * as rollout from './rollout.js';
import { initTabs } from './tabs.js';

const app = {
  engine: null,
  fs: null,
  session: null,
  config: null,
  /** Rollout lines of the current session, in write order. */
  rollout: [],
  /**
   * Every model_request in issue order: {id, purpose, endpoint, attempt, body (text), bytes,
   * report, usage, cold (the cache_cold event told before it), diagnosis (cache_diagnosis)}.
   */
  requests: [],
  /** token_usage of turn requests in order, each with `compactionBefore` after a compaction. */
  usage: [],
  /** token_usage of compaction requests. */
  compactionUsage: [],
  /** cache_report events by request id. */
  reports: new Map(),
  /** Compactions seen (events), used as chart markers. */
  compactions: 0,
  /** AGENTS.md edits: path -> {time, request} (the number of requests issued before the edit). */
  edits: new Map(),
  busy: false,
  abort: null,
  /** API keys by provider account (keyAccount); '' = none: the mock model answers. */
  apiKeys: { openai: '', anthropic: '' },
  listeners: new Map(),

  on(topic, fn) {
    if (!this.listeners.has(topic)) this.listeners.set(topic, []);
    this.listeners.get(topic).push(fn);
  },
  emit(topic, payload) {
    for (const fn of this.listeners.get(topic) ?? []) fn(payload);
  },
  now: () => Date.now(),

  /** Shows an error (AgentctxError: its code) in the alert line; empty clears it. */
  status(error) {
    const text = error === undefined || error === ''
      ? ''
      : error instanceof AgentctxError ? `${error.code}: ${error.message}` : String(error?.message ?? error);
    $('status').textContent = text;
  },

  /** Handles the effects of a call that is not a turn (start, update): persist + events. */
  absorb(effects) {
    for (const effect of effects) {
      if (effect.type === 'persist') this.persist(effect.lines);
      else if (effect.type === 'event') this.event(effect.event);
    }
  },

  persist(lines) {
    this.rollout.push(...lines);
    this.emit('rollout', lines);
  },

  event(event) {
    if (event.type === 'cache_report') {
      // Events precede the model_request effect of the same call: keep it for that effect.
      this.reports.set(event.request_id, event);
    } else if (event.type === 'token_usage') {
      const request = [...this.requests].reverse().find((r) => r.id === event.request_id);
      if (request) request.usage = event;
      if (request?.purpose === 'compact') {
        // Costed, but not a bar: rollouts do not rebuild compaction requests (docs/replay.md),
        // and the chart must look the same after an export and import.
        this.compactionUsage.push(event);
      } else {
        this.usage.push({ ...event, compactionBefore: this.pendingCompaction === true });
        this.pendingCompaction = false;
      }
      this.emit('usage', event);
      this.emit('request', request);
    } else if (event.type === 'item_done' && event.origin === 'tool') {
      chat.onEvent(event);
      this.emit('tool-output', event.item);
      return;
    } else if (event.type === 'cache_diagnosis') {
      // The provider's verdict on a request, known when its response completes.
      const request = this.requests.findLast((r) => r.id === event.request_id);
      if (request) {
        request.diagnosis = event;
        this.emit('diagnosis', request);
      }
    } else if (event.type === 'cache_cold') {
      // Told before the turn's first request: that request (a prewarm, if any) carries it.
      this.pendingCold = event;
    } else if (event.type === 'compaction' && event.phase === 'completed') {
      this.compactions += 1;
      this.pendingCompaction = true;
      this.emit('usage', event);
    }
    chat.onEvent(event);
  },

  /** Applies a config delta (merge patch); true when the engine accepted it. */
  update(delta) {
    try {
      const { effects } = this.session.call('update', { delta, now_ms: this.now() });
      const { cwd, ...patch } = delta;
      let next = mergePatch(this.config, patch);
      if (cwd !== undefined) {
        next = { ...next, environments: next.environments.map((e, i) => (i === 0 ? { ...e, cwd } : e)) };
      }
      this.config = next;
      this.absorb(effects);
      this.status('');
      this.emit('config', delta);
      return true;
    } catch (error) {
      this.status(error);
      this.emit('config', null);
      return false;
    }
  },

  /** The session's provider: responses, chat or anthropic. */
  provider() {
    return this.config?.provider ?? 'responses';
  },

  modelClient() {
    // The session's provider picks the API, and only its own account's key is used; without
    // one the mock answers every provider.
    const provider = this.provider();
    const apiKey = this.apiKeys[keyAccount(provider)];
    if (apiKey === '') return mockModelClient(this.engine, { now: this.now, eventDelayMs: 6 });
    if (provider === 'anthropic') {
      // Anthropic refuses browser requests without this opt-in header (the key stays in memory).
      return anthropicMessagesClient({ apiKey, headers: { 'anthropic-dangerous-direct-browser-access': 'true' } });
    }
    if (provider === 'chat') return chatCompletionsClient({ apiKey });
    return openAIResponsesClient({ apiKey });
  },

  /** Runs one turn (a message, or the effects of a call such as a manual compaction). */
  async runTurn(turn) {
    if (this.busy) return;
    this.busy = true;
    this.abort = new AbortController();
    this.emit('busy', true);
    try {
      await this.tracker.flush(); // a tracker tool-list change waiting since the last turn
      const result = await runTurn(this.session, {
        ...turn,
        model: this.modelClient(),
        tools: this.tracker.handler(),
        signal: this.abort.signal,
        now: this.now,
        onEffect: (effect) => this.effect(effect),
        onEvent: (event) => this.event(event),
        onPersist: (lines) => this.persist(lines),
      });
      chat.turnDone(result);
      this.status('');
    } catch (error) {
      this.status(error);
      chat.failure(error);
    } finally {
      this.busy = false;
      this.abort = null;
      this.emit('busy', false);
      this.emit('turn');
    }
  },

  /** Forces a compaction: `compact` starts its own turn, which runTurn drives. */
  compact() {
    if (this.busy) return;
    let effects;
    try {
      effects = this.session.call('compact', { now_ms: this.now() }).effects;
    } catch (error) {
      this.status(error);
      return;
    }
    chat.note('manual compaction requested', 'compaction');
    this.runTurn({ effects });
  },

  effect(effect) {
    if (effect.type === 'model_request') {
      // A retry keeps its id (and its cache report: a retry is not a new request).
      // The body crosses the engine boundary as bytes (sent as is); the inspector shows its text.
      this.requests.push({
        ...effect, body: effect.bodyText, bytes: effect.body.length,
        report: this.reports.get(effect.id) ?? null, usage: null, cold: this.pendingCold ?? null, diagnosis: null,
      });
      this.pendingCold = null;
      this.emit('request', this.requests.at(-1));
    } else if (effect.type === 'error') {
      chat.errorEffect(effect);
    }
  },

  /** Opens a fresh session on the same workspace with the current settings. */
  startSession() {
    this.session?.close();
    this.rollout = [];
    this.requests = [];
    this.reports.clear();
    this.usage = [];
    this.compactionUsage = [];
    this.compactions = 0;
    this.pendingCompaction = false;
    this.pendingCold = null;
    this.edits.clear();
    const sessionId = `playground-${Date.now().toString(36)}`;
    this.config = { ...(this.config ?? defaultConfig(sessionId)), session_id: sessionId };
    this.session = this.engine.openSession({ [FS_NAME]: this.fs });
    this.emit('reset');
    const { effects } = this.session.call('session.start', { config: this.config, now_ms: this.now() });
    this.absorb(effects);
    this.emit('config', null);
    this.emit('turn');
  },
};

const PROVIDER_NAMES = { responses: 'OpenAI Responses API', chat: 'Chat Completions API', anthropic: 'Anthropic Messages API' };
const ACCOUNTS = { openai: { label: 'OpenAI API key', placeholder: 'sk-…' }, anthropic: { label: 'Anthropic API key', placeholder: 'sk-ant-…' } };

/** Whose key a provider's requests carry: Anthropic's, or OpenAI's (Responses, Chat Completions). */
export const keyAccount = (provider) => (provider === 'anthropic' ? 'anthropic' : 'openai');

/** Labels the key field by the session's provider, shows that provider's key and the model source. */
let shownAccount = null;
function showKey() {
  const account = keyAccount(app.provider());
  const field = $('api-key');
  if (account !== shownAccount) {
    // Another provider account: its own key (or none) in the field, never the other one's.
    $('api-key-label').textContent = ACCOUNTS[account].label;
    field.placeholder = ACCOUNTS[account].placeholder;
    field.value = app.apiKeys[account];
    shownAccount = account;
  }
  const mock = app.config?.model.slug.startsWith('mock') ?? true;
  $('model-source').textContent = app.apiKeys[account] === ''
    ? 'mock model (offline)'
    : `${PROVIDER_NAMES[app.provider()]} (key in memory only)${mock ? ' — set Model to a real model name' : ''}`;
}

async function main() {
  app.engine = await createEngine();
  $('engine-version').textContent = app.engine.version();
  app.fs = createMemoryFileSystem(DEMO_FILES, { clock: () => Date.now() });
  // The in-page MCP server (tracker.js), through the package's MCP adapter.
  app.tracker = await attachTracker(app, (text) => chat.note(text, 'tools'));
  for (const panel of [chat, workspace, settings, inspector, cache, world, agents, rollout]) panel.init(app);
  initTabs();
  // On a phone-sized screen (one stacked column) the chat comes first: Workspace and Settings
  // start folded above it, one tap away (style.css, max-width 760px).
  if (matchMedia('(max-width: 760px)').matches) {
    for (const id of ['workspace-panel', 'settings-panel']) $(id).open = false;
  }

  $('key-form').addEventListener('submit', (e) => e.preventDefault());
  $('api-key').addEventListener('input', (e) => {
    app.apiKeys[keyAccount(app.provider())] = e.target.value.trim();
    showKey();
  });
  app.on('config', showKey);
  $('compact').addEventListener('click', () => app.compact());
  $('new-session').addEventListener('click', () => {
    if (!app.busy) app.startSession();
  });
  app.startSession();
  app.status('');
}

main().then(
  () => { document.body.dataset.state = 'ready'; },
  (error) => {
    document.body.dataset.state = 'error';
    app.status(error);
    console.error(error);
  },
);

// Exposed for debugging in the console (and the e2e suite), never for storage.
window.playground = app;
