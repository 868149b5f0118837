// SPDX-License-Identifier: MIT
// The naive JS harness: the baseline every agentctx figure is a ratio against
// (docs/BENCHMARKS.md). It does what a straightforward harness does at every request:
//  1. re-renders the system prompt from scratch (base text, cwd, today's date, approval and
//     sandbox, the AGENTS.md text read again through `readAgentsMd`);
//  2. builds the tools array from an object of specs;
//  3. JSON.stringify()s the whole request, history included;
//  4. TextEncoder().encode()s it: the body in hand as bytes ready for fetch.
// Model answers arrive as SSE bytes and are parsed (decode, split events, JSON.parse each data
// line); function_call items and tool outputs are pushed onto one history array. A "compaction"
// replaces the history with the summary as one user message.
import { CONFIG, SUBMIT_TEXT } from './workload.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class NaiveHarness {
  /**
   * @param {object} o model, instructions (base system prompt), cwd, approval, sandbox,
   *   tools ({name: {description, parameters}}), readAgentsMd (() => string, called per request)
   */
  constructor(o) {
    this.model = o.model;
    this.instructions = o.instructions;
    this.cwd = o.cwd;
    this.approval = o.approval ?? 'on-request';
    this.sandbox = o.sandbox ?? 'workspace-write';
    this.tools = { ...(o.tools ?? {}) };
    this.readAgentsMd = o.readAgentsMd ?? (() => '');
    this.history = [];
  }

  addUser(text) {
    this.history.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  }

  addToolOutput(callId, output) {
    this.history.push({ type: 'function_call_output', call_id: callId, output });
  }

  systemPrompt() {
    const date = new Date().toISOString().slice(0, 10);
    let text = `${this.instructions}\n\n# Environment\ncwd: ${this.cwd}\ndate: ${date}\n` +
      `approval policy: ${this.approval}\nsandbox: ${this.sandbox}\n`;
    const agents = this.readAgentsMd(this.cwd);
    if (agents) text += `\n# AGENTS.md\n${agents}`;
    return text;
  }

  toolList() {
    return Object.entries(this.tools).map(([name, t]) => ({
      type: 'function', name, description: t.description ?? '', strict: false,
      parameters: t.parameters ?? { type: 'object', properties: {} },
    }));
  }

  /** The next request body as bytes; `extraInput` items are appended (compaction prompt). */
  request(extraInput) {
    const body = {
      model: this.model,
      instructions: this.systemPrompt(),
      input: extraInput ? [...this.history, ...extraInput] : this.history,
      tools: this.toolList(),
      tool_choice: 'auto',
      parallel_tool_calls: true,
      store: false,
      stream: true,
    };
    return encoder.encode(JSON.stringify(body));
  }

  /** Parses one SSE answer; on response.completed its items join the history (unless `keep` false). */
  receive(sseBytes, keep = true) {
    const text = typeof sseBytes === 'string' ? sseBytes : decoder.decode(sseBytes);
    const items = [];
    let usage = null;
    for (const block of text.split('\n\n')) {
      let data = '';
      for (const line of block.split('\n')) if (line.startsWith('data: ')) data += line.slice(6);
      if (!data) continue;
      const event = JSON.parse(data);
      if (event.type === 'response.output_item.done') items.push(event.item);
      else if (event.type === 'response.completed') usage = event.response.usage ?? null;
    }
    if (usage === null) throw new Error('naive harness: the answer has no response.completed');
    if (keep) this.history.push(...items);
    return { items, usage };
  }

  /** Replaces the history by the summary (a naive compaction). */
  compactTo(summary) {
    this.history = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: summary }] }];
  }
}

/** The harness configured like the workload's CONFIG. */
export function workloadHarness(config = CONFIG, readAgentsMd) {
  const tools = {};
  for (const t of config.tools ?? []) tools[t.name] = { description: t.description, parameters: t.parameters };
  return new NaiveHarness({
    model: config.model.slug,
    instructions: config.model.instructions,
    cwd: config.environments[0].cwd,
    approval: config.approval_policy,
    sandbox: config.sandbox?.mode,
    tools,
    readAgentsMd,
  });
}

/** The tool loop of workload.mjs on the naive harness (same surface as EngineLoop). */
export class NaiveLoop {
  constructor() {
    this.harness = workloadHarness();
    this.steps = 0;
    this.body = null;
  }

  start() {
    this.harness.addUser(SUBMIT_TEXT);
    this.body = this.harness.request();
    return this;
  }

  step(p, render = true) {
    const { items } = this.harness.receive(p.sse);
    const call = items[0];
    if (call?.call_id !== `call_${p.k}`) throw new Error(`naive step ${p.k}: no function_call call_${p.k}`);
    this.harness.addToolOutput(call.call_id, p.output);
    this.steps = p.k;
    if (render) this.body = this.harness.request();
    return this.body;
  }
}
