// SPDX-License-Identifier: MIT
// The public surface shared by both entry points (index.ts for browsers/bundlers, index.node.ts
// for Node). Everything here is free of Node built-ins.
export { AgentctxError, isErrorCode } from './errors.js';
export { ERROR_CODES, ERROR_CODE_DOCS, FILE_SYSTEM_ERROR_CODES } from './generated/error_codes.js';
export type { ErrorCode, FileSystemErrorCode } from './generated/error_codes.js';
export type {
  FileKind, FileSystem, FsDirEntry, FsFailure, FsResult, FsStat,
} from './file_system.js';
export { createMemoryFileSystem } from './memory_file_system.js';
export type { MemoryFileSystem, MemoryFileSystemOptions } from './memory_file_system.js';
export type {
  AgentctxEngine, Caller, EngineMethods, EngineOptions, EngineStats, SessionHandle, SessionMethods,
} from './types.js';
export type * from './protocol.js';
export {
  DELIVERY_TYPES, EFFECT_TYPES, ENGINE_METHODS, ENUM_VALUES, ERROR_EFFECT_CODES, EVENT_TYPES,
  SESSION_METHODS, SESSION_MUTATIONS, WARNING_CODES, WARNING_CODE_DOCS,
} from './generated/protocol.js';
export { createCaller } from './caller.js';
export type { RawTransport } from './caller.js';
export {
  ANTHROPIC_VERSION, anthropicMessagesClient, chatCompletionsClient, mockModelClient, openAIResponsesClient, redactSecret,
} from './model_clients.js';
export type { MockModelClientOptions, OpenAIResponsesClientOptions } from './model_clients.js';
export { retryDelayMs, runTurn } from './driver.js';
export type { ModelClient, RetryOptions, RunTurnOptions, ToolCallContext, ToolHandler, TurnResult } from './driver.js';
export {
  DEFAULT_TOOL_TIMEOUT_MS, McpToolSet, listAllTools, mcpTools,
} from './mcp.js';
export type {
  McpApprovalRequest, McpApprover, McpClientLike, McpRequestOptions, McpServerOptions, McpToolSetOptions, McpToolsChange,
} from './mcp.js';
export {
  MCP_TOOL_NAME_MAX, mcpResultToOutput, mcpToolName, normalizeSchema, sanitizeToolName,
} from './mcp_tools.js';
export type { McpCallToolResult, McpContent, McpTool } from './mcp_tools.js';
