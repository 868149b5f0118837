// SPDX-License-Identifier: MIT
// The memoized module load shared by both entry points: agentctx.mjs is instantiated once per
// JS realm (the first call's options win; a failed load is retried on the next call). Failures
// become AgentctxError `module_load_failed`.
import createAgentctxModule from './agentctx.mjs';
import type { AgentctxModule, AgentctxModuleOptions } from './embind_module.js';
import { AgentctxError } from './errors.js';

let loading: Promise<AgentctxModule> | undefined;

/** Loads the module once; `moduleOptions` is only called for the first (or a retried) load. */
export function loadModule(
  moduleOptions: () => Promise<AgentctxModuleOptions> | AgentctxModuleOptions,
): Promise<AgentctxModule> {
  if (loading === undefined) {
    const attempt = (async () => {
      try {
        return await createAgentctxModule(await moduleOptions());
      } catch (cause) {
        const message = cause instanceof Error ? cause.message : String(cause);
        throw new AgentctxError('module_load_failed', `agentctx.wasm could not be loaded: ${message}`,
          undefined, { cause });
      }
    })();
    loading = attempt;
    attempt.catch(() => {
      if (loading === attempt) loading = undefined;
    });
  }
  return loading;
}
