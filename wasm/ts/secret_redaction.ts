// SPDX-License-Identifier: MIT
// API keys at the edge of the model clients: how a key is accepted and how it is kept out of
// every text the clients hand on (docs/RELIABILITY.md, "API keys and the rollout lock").
// Invariants:
//  - A key is trimmed once, where it enters (normalizeApiKey); the header carries the trimmed
//    key and redaction looks for that same key. A key that is empty after trimming, or holds a
//    character an HTTP header cannot carry, is refused with a message that never quotes it.
//  - Redaction replaces the key as written and every spelling a JSON string decoder turns into
//    it (`\uXXXX` in either case for any of its characters, `\/`, `\"`, `\\`, …), so an error body
//    that echoes the key escaped cannot bring it back once the engine decodes the JSON; and every
//    URL percent-encoding of it (`%XX` of the UTF-8 bytes of any of its characters, either case),
//    the form a server puts into a link it builds from it.
import { AgentctxError } from './errors.js';

/** The short escapes of JSON strings, by the character they stand for. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t',
};

function regexLiteral(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** `\uXXXX` of one UTF-16 code unit with the hex digits in any case, as a regex. */
function unicodeEscape(unit: number): string {
  const hex = unit.toString(16).padStart(4, '0');
  const digits = [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
  return `\\\\u${digits}`;
}

/** `%XX` of each UTF-8 byte of `ch`, hex digits in any case, as a regex. */
function percentEscape(ch: string): string {
  return [...new TextEncoder().encode(ch)].map((byte) => {
    const hex = byte.toString(16).padStart(2, '0');
    return `%${[...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('')}`;
  }).join('');
}

/** A regex source matching `ch` written plainly, as any JSON string escape of it, or percent-encoded. */
function characterSpellings(ch: string): string {
  const options = [regexLiteral(ch), percentEscape(ch)];
  const short = SHORT_ESCAPES[ch];
  if (short !== undefined) options.push(regexLiteral(short));
  // An astral character is two code units; JSON spells it as two escapes (or mixes them).
  const units = [...Array(ch.length).keys()].map((i) => ch.charCodeAt(i));
  if (units.length === 1) {
    options.push(unicodeEscape(units[0] as number));
  } else {
    options.push(units.map((u, i) => `(?:${regexLiteral(ch[i] as string)}|${unicodeEscape(u)})`).join(''));
  }
  return `(?:${options.join('|')})`;
}

/**
 * A function that replaces every occurrence of `secret` (trimmed; nothing when it is empty) in a
 * text with `***`: the plain key and each JSON-escaped or percent-encoded spelling of it.
 */
export function secretRedactor(secret: string | undefined): (text: string) => string {
  const key = typeof secret === 'string' ? secret.trim() : '';
  if (key === '') return (text) => text;
  const pattern = new RegExp([...key].map(characterSpellings).join(''), 'g');
  return (text) => text.replace(pattern, '***');
}

/**
 * secretRedactor for several secrets at once, in one pass: every occurrence of any of them
 * (trimmed; empty ones ignored) becomes `***`. Where two overlap at one place, the longer one is
 * replaced. The identity when there is none.
 */
export function secretsRedactor(secrets: Iterable<string | undefined>): (text: string) => string {
  const keys = [...new Set([...secrets].map((s) => (typeof s === 'string' ? s.trim() : '')).filter((s) => s !== ''))]
    .sort((a, b) => b.length - a.length);
  if (keys.length === 0) return (text) => text;
  const pattern = new RegExp(keys.map((key) => [...key].map(characterSpellings).join('')).join('|'), 'g');
  return (text) => text.replace(pattern, '***');
}

/** Replaces every occurrence of `secret` (trimmed, when non-empty) with `***`, escaped spellings included. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secretRedactor(secret)(text);
}

/**
 * The key a client sends: `apiKey` trimmed (a key read from a CRLF file or with a trailing
 * newline works as the user meant). undefined stays undefined; anything else must be a string
 * that is non-empty after trimming and holds only printable ASCII (spaces allowed inside).
 */
export function normalizeApiKey(apiKey: unknown, client: string): string | undefined {
  if (apiKey === undefined) return undefined;
  if (typeof apiKey !== 'string') throw new AgentctxError('invalid_input', `${client}: apiKey must be a non-empty string`);
  const key = apiKey.trim();
  if (key === '') throw new AgentctxError('invalid_input', `${client}: apiKey must be a non-empty string (it is empty or only whitespace)`);
  const bad = key.search(/[^\x20-\x7e]/);
  if (bad >= 0) {
    throw new AgentctxError('invalid_input',
      `${client}: apiKey has a control or non-ASCII character at index ${bad}; an API key is one line of printable ASCII`);
  }
  return key;
}
