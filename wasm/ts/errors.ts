// SPDX-License-Identifier: MIT
// AgentctxError: every failure the package reports. Error envelopes
// {"v":1,"ok":false,"error":{code,message,details?}} become an AgentctxError with the same code;
// misuse of the API (disposed engine, closed session, bad arguments) uses the same class.
import { ERROR_CODES, type ErrorCode } from './generated/error_codes.js';

export class AgentctxError extends Error {
  /** The snake_case wire code (error_codes.def). */
  readonly code: ErrorCode;
  /** Extra facts from the envelope, e.g. {"path":"/w/x"} or {"offset":"3"}. */
  readonly details?: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AgentctxError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** True for a wire code listed in error_codes.def. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && KNOWN_CODES.has(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses an envelope: returns `value` when ok, throws the AgentctxError otherwise. A text that is
 * not an envelope at all is a bug in agentctx (code "internal").
 */
export function unwrapEnvelope(text: string): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch (cause) {
    throw new AgentctxError('internal', 'the engine returned invalid JSON', { text }, { cause });
  }
  if (!isRecord(envelope) || envelope['v'] !== 1 || typeof envelope['ok'] !== 'boolean') {
    throw new AgentctxError('internal', 'the engine returned a malformed envelope', { text });
  }
  if (envelope['ok']) return envelope['value'];
  const error = envelope['error'];
  if (!isRecord(error) || !isErrorCode(error['code']) || typeof error['message'] !== 'string') {
    throw new AgentctxError('internal', 'the engine returned a malformed error envelope', { text });
  }
  const details = error['details'];
  throw new AgentctxError(error['code'], error['message'], isRecord(details) ? details : undefined);
}
