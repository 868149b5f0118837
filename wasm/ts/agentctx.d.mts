// SPDX-License-Identifier: MIT
// INTERNAL: lets tsc type `import createAgentctxModule from './agentctx.mjs'` (the Emscripten
// output copied into dist/ by scripts/assemble_package.mjs). Types live in embind_module.d.ts.
import type { AgentctxModuleFactory } from './embind_module.js';

declare const createAgentctxModule: AgentctxModuleFactory;
export default createAgentctxModule;
