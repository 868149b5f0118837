// SPDX-License-Identifier: MIT
// Approval of MCP tool calls in the CLI (docs/mcp.md). MCP tools run outside the WASI sandbox
// (a server is a program of the user's, with the user's rights), so a call runs only when:
//  - the session's approval_policy is `never`, or
//  - the tool is in its server's `approved_tools`, or
//  - the user answered `always` for that tool earlier in this session, or
//  - the user answers `y` (this call) or `a` (always) at the prompt.
// Invariants: the prompt is asked only where someone can answer (stdin and stderr are
// terminals and no --script runs); elsewhere the call is refused with a tool error that names
// the setting to change, so a script or a pipe never hangs. Prompts never overlap: concurrent
// calls ask one after another. The refusal texts never carry the arguments' content.
// The question names the tool by its advertised name (`mcp__<server>__<tool>`: only
// [A-Za-z0-9_-], stable for the session), never by the raw name the server chose, and shows the
// arguments with every control character escaped (terminal_text.ts): nothing a server or the
// model sent can repaint the question the user answers.
import type { McpApprovalRequest, McpApprover } from 'agentctx';
import type { McpServerEntry } from './mcp_config.js';
import { terminalLine } from './terminal_text.js';

export interface ApprovalOptions {
  servers: readonly McpServerEntry[];
  /** The session's approval_policy now (it may change with a script's update). */
  policy: () => string;
  /** Asks one question and resolves the answer line (undefined: input ended or `signal` aborted); absent: nobody can answer. */
  ask?: (question: string, signal?: AbortSignal) => Promise<string | undefined>;
  /** Why nobody can answer (for the refusal text), e.g. "stdin is not a terminal". */
  noAnswerReason: string;
}

function shown(args: string): string {
  const oneLine = terminalLine(args.replace(/\s+/g, ' ').trim());
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

export function cliApprover(options: ApprovalOptions): McpApprover {
  const always = new Set<string>();
  const approved = new Map(options.servers.map((s) => [s.name, new Set(s.approvedTools)]));
  let queue: Promise<unknown> = Promise.resolve();
  return (request: McpApprovalRequest): true | string | Promise<true | string> => {
    const key = `${request.server}\0${request.tool}`;
    if (options.policy() === 'never' || approved.get(request.server)?.has(request.tool) || always.has(key)) return true;
    const setting = `"approved_tools": [${JSON.stringify(request.tool)}] under mcp_servers.${request.server} in the --config file, or --approval never`;
    const ask = options.ask;
    if (ask === undefined) {
      return `error: ${request.name} was not run: MCP tools run outside the sandbox and need approval, ` +
        `and nobody can answer here (${options.noAnswerReason}); to allow it, set ${setting}`;
    }
    const answer = queue.then(async (): Promise<true | string> => {
      if (always.has(key)) return true;
      for (;;) {
        if (request.signal?.aborted) return `error: ${request.name} was not run: the turn was interrupted`;
        const line = await ask(terminalLine(`agentctx: MCP tool ${request.name} wants to run outside the sandbox ` +
          `with ${shown(request.arguments) || '{}'}. Run it? [y]es / [n]o / [a]lways for this tool: `), request.signal);
        if (request.signal?.aborted) return `error: ${request.name} was not run: the turn was interrupted`;
        const reply = line?.trim().toLowerCase();
        if (reply === undefined || reply === 'n' || reply === 'no') {
          return `error: the user declined to run ${request.name}` + (reply === undefined ? ' (input ended)' : '');
        }
        if (reply === 'y' || reply === 'yes') return true;
        if (reply === 'a' || reply === 'always') {
          always.add(key);
          return true;
        }
      }
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
}
