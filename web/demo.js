// SPDX-License-Identifier: MIT
// The playground's preset data: a demo repository (root and nested AGENTS.md, an override, a
// CODEX_HOME global), the default session config and example prompts. Pure data, no I/O. The
// MCP server "tracker" the settings switch on is tracker.js.

export const HOME_DIR = '/home/dev/.codex';
export const FS_NAME = 'workspace';

/** Path -> text of the demo workspace. */
export const DEMO_FILES = {
  [`${HOME_DIR}/AGENTS.md`]:
    '# Global preferences (CODEX_HOME)\n\nPrefer small, reviewable changes and explain trade-offs briefly.\n',
  '/repo/.git/HEAD': 'ref: refs/heads/main\n',
  '/repo/AGENTS.md':
    '# acme monorepo\n\n- Run `make test` before proposing a commit.\n- Keep functions short; prefer early returns.\n',
  '/repo/README.md':
    '# acme\n\nA small monorepo with two services:\n\n- services/api: the HTTP API (Rust)\n- services/web: the web front end (JavaScript)\n\nRun `make test` to test everything.\n',
  '/repo/Makefile': 'test:\n\tcd services/api && cargo test\n\tcd services/web && npm test\n',
  '/repo/services/api/AGENTS.md':
    '# API service\n\nreply prefix: [api]\n\nUse the error types in src/errors.rs; never panic in handlers.\n',
  '/repo/services/api/Cargo.toml': '[package]\nname = "acme-api"\nversion = "0.1.0"\nedition = "2021"\n',
  '/repo/services/api/src/main.rs':
    'mod errors;\nmod routes;\n\nfn main() {\n    let app = routes::router();\n    app.serve("127.0.0.1:8080");\n}\n',
  '/repo/services/api/src/routes.rs':
    'use crate::errors::ApiError;\n\npub fn router() -> Router {\n    Router::new().get("/health", health)\n}\n\nfn health() -> Result<&\'static str, ApiError> {\n    Ok("ok")\n}\n',
  '/repo/services/api/src/errors.rs': '#[derive(Debug)]\npub enum ApiError {\n    NotFound,\n    Internal(String),\n}\n',
  '/repo/services/web/AGENTS.md': '# Web app\n\nUse the npm scripts; do not add dependencies.\n',
  '/repo/services/web/AGENTS.override.md':
    '# Web app (local override)\n\nreply prefix: [web]\n\nThis override wins over AGENTS.md in this directory.\n',
  '/repo/services/web/package.json': '{\n  "name": "acme-web",\n  "private": true,\n  "scripts": { "test": "node --test" }\n}\n',
  '/repo/services/web/src/app.js': 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n',
};

/** The config of a fresh playground session. */
export function defaultConfig(sessionId) {
  return {
    session_id: sessionId,
    model: {
      slug: 'mock-1',
      // No `instructions`: the engine's base instructions (core/prompts) are sent, as for any
      // model whose config leaves them unset; the Requests view shows them.
      context_window: 128000,
      auto_compact_token_limit: null,
    },
    approval_policy: 'on-request',
    sandbox: { mode: 'workspace-write', writable_roots: [], network_access: false },
    environments: [{ id: 'local', cwd: '/repo/services/api', shell: 'bash', fs: FS_NAME }],
    trust: 'trusted',
    agents_md: { home_dir: HOME_DIR, refresh: 'selection' },
    builtin_tools: true,
    tools: [],
    tool_policy: 'apply',
  };
}

/** Example prompts for the composer. */
export const EXAMPLES = [
  'Please read src/main.rs and src/routes.rs and tell me how routing works.',
  'List the files here. #mock-list:.',
  'What should I run before committing?',
  'Where is the router set up? #mock-grep:fn \\w+\\(',
  '#mock-edit:src/routes.rs=/health=>/healthz',
  '#mock-call:mcp__tracker__search_issues={"query":"health"}',
  '#mock-call:mcp__tracker__enable_editing',
];
