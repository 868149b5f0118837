// SPDX-License-Identifier: MIT
// The playground's MCP server "tracker", in the page, driven through the package's MCP adapter
// (McpToolSet, docs/mcp.md) exactly as the CLI drives a real server: tools/list with cursors,
// tools/call results with content blocks, and notifications/tools/list_changed.
// Why not the SDK's Client over its InMemoryTransport: the playground is plain ES modules with
// an import map and no bundling step, and its CSP forbids eval, which the SDK's default schema
// validator (Ajv) needs; so the server speaks the protocol's shapes itself and the adapter,
// which accepts any client of that shape, cannot tell the difference.
// Invariants: the server's state lives in this module only (no I/O); a list change reaches the
// session as one `update` of `tools` through app.update (so the settings and the config views
// follow), between steps or turns, and only while the tracker's tools are in the session.
import { McpToolSet } from 'agentctx';

const PAGE_SIZE = 2;

const ISSUES = [
  { number: 12, title: 'API returns 500 on unknown routes', state: 'open', body: 'Should be 404 with ApiError::NotFound.' },
  { number: 17, title: 'Web greeting is not localised', state: 'open', body: 'greet() only speaks English.' },
  { number: 21, title: 'make test skips the web app on CI', state: 'closed', body: 'Fixed by running npm test.' },
];

const BASE_TOOLS = [
  {
    name: 'search_issues',
    description: 'Searches the issue tracker and returns matching issue numbers and titles.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
  {
    name: 'get_issue',
    description: 'Fetches one issue (title, state, body) by its number.',
    inputSchema: { type: 'object', properties: { number: { type: 'integer' } }, required: ['number'] },
  },
  {
    name: 'enable_editing',
    description: 'Unlocks the tracker\'s editing tools (close_issue); the tracker announces the new tool list.',
    inputSchema: { type: 'object', properties: {} },
  },
];

const CLOSE_TOOL = {
  name: 'close_issue',
  description: 'Closes an issue by its number.',
  inputSchema: { type: 'object', properties: { number: { type: 'integer' } }, required: ['number'] },
};

const text = (t, isError = false) => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) });

/** The in-page server: listTools / callTool as an MCP client sees them, plus its list-change signal. */
export function createTrackerServer() {
  const issues = ISSUES.map((i) => ({ ...i }));
  const listeners = [];
  let editing = false;
  const tools = () => (editing ? [...BASE_TOOLS, CLOSE_TOOL] : BASE_TOOLS);
  const handlers = {
    search_issues: ({ query }) => {
      const q = String(query ?? '').toLowerCase();
      const hits = issues.filter((i) => `${i.title} ${i.body}`.toLowerCase().includes(q));
      return text(JSON.stringify(hits.map(({ number, title, state }) => ({ number, title, state }))));
    },
    get_issue: ({ number }) => {
      const issue = issues.find((i) => i.number === Number(number));
      return issue ? { ...text(JSON.stringify(issue)), structuredContent: issue } : text(`no issue #${number}`, true);
    },
    enable_editing: () => {
      if (!editing) {
        editing = true;
        for (const listener of listeners) listener(); // notifications/tools/list_changed
      }
      return text('editing enabled: close_issue is now in the tool list');
    },
    close_issue: ({ number }) => {
      const issue = issues.find((i) => i.number === Number(number));
      if (!issue) return text(`no issue #${number}`, true);
      issue.state = 'closed';
      return text(`closed #${issue.number}`);
    },
  };
  return {
    async listTools({ cursor } = {}) {
      const all = tools();
      const start = cursor === undefined ? 0 : Number(cursor);
      const page = all.slice(start, start + PAGE_SIZE);
      return start + PAGE_SIZE < all.length ? { tools: page, nextCursor: String(start + PAGE_SIZE) } : { tools: page };
    },
    async callTool({ name, arguments: args = {} }) {
      const known = tools().some((t) => t.name === name);
      if (!known) return text(`unknown tool ${name}`, true);
      return handlers[name](args);
    },
    onToolsChanged(listener) {
      listeners.push(listener);
    },
  };
}

/**
 * The tracker as the playground's MCP server: `tools()` for the settings switch, `flush()` before
 * a turn, `handler()` for runTurn. `note(text)` says each list change in the chat.
 */
export async function attachTracker(app, note) {
  const server = createTrackerServer();
  const set = new McpToolSet();
  set.addServer('tracker', server);
  server.onToolsChanged(() => set.listChanged('tracker'));
  await set.refresh();
  const active = () => (app.config?.tools ?? []).some((t) => t.server === 'tracker');
  // Updates go through app.update, which keeps app.config and the panels in step.
  const session = {
    call(method, input) {
      if (method !== 'update') return app.session.call(method, input);
      app.update(input.delta);
      return { effects: [] };
    },
  };
  const onChange = (change) => {
    const parts = [...change.added.map((n) => `+${n}`), ...change.removed.map((n) => `-${n}`), ...change.changed.map((n) => `~${n}`)];
    const policy = app.config?.tool_policy ?? 'apply';
    note(`tracker: tools/list_changed (${parts.join(', ')}) became one update of tools; ` +
      (policy === 'defer' ? 'defer: the model is told now, the tools array stays frozen until the next compaction'
        : policy === 'native' ? 'native: the next request appends the change through the provider (additional_tools / tool_addition), the tools array stays frozen'
          : 'apply: the next request advertises the new array (its prefix cache stops at the tools)'));
  };
  return {
    tools: () => set.sessionTools(),
    flush: async () => {
      if (active()) await set.applyUpdate(session, { now: app.now, onChange });
    },
    handler: () => set.toolHandler({
      ...(active() ? { session, now: app.now, onChange } : {}),
      fallback: (call) => `unknown host tool ${call.name}`,
    }),
  };
}
