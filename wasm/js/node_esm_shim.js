// SPDX-License-Identifier: MIT
// Prepended to agentctx.mjs with --extern-pre-js (cmake/Emscripten.cmake; TOOLCHAIN §4).
// Why: Emscripten 3.1.6's Node code path is CommonJS-only: with -sEXPORT_ES6 it still calls
// require() and reads __dirname, which do not exist in an ES module ("__dirname is not defined
// in ES module scope"). This defines both for Node and leaves them inert in browsers/workers.
// Bundlers must treat `node:*` as external (esbuild --external:'node:*').
const __emIsNode = typeof process == 'object' && typeof process.versions == 'object' && typeof process.versions.node == 'string';
const require = __emIsNode ? (await import('node:module')).createRequire(import.meta.url) : undefined;
const __dirname = __emIsNode ? require('node:path').dirname(require('node:url').fileURLToPath(import.meta.url)) : '';
