// SPDX-License-Identifier: MIT
// Terminal-safe text: a string an MCP server, a model endpoint or the model supplied reaches the
// terminal only with its control characters made visible. Raw, they let the sender rewrite the
// screen — a bare CR or `ESC [2K` / `ESC [1A` repaints a question the user is about to answer,
// OSC 52 writes the clipboard, a bidirectional override reorders what is shown (docs/mcp.md,
// "What a server cannot do to your terminal").
// Invariants:
//  - terminalText(s) holds no C0 control but LF and TAB, no DEL, no C1 control (U+0080–U+009F,
//    CSI U+009B and OSC U+009D among them) and no bidirectional override or isolate
//    (U+202A–U+202E, U+2066–U+2069). Each is written as visible ASCII: `\r`, `\x1b`, `\x7f`,
//    `\u009b`, `\u202e`; a CR directly before an LF is dropped (a CRLF line end moves no text).
//  - terminalLine(s) is that, on one line: each line break with the white space around it is one
//    space, so nothing of it can start a new line either.
//  - Every other character (any script, emoji, a literal backslash) is left as it is, and the
//    result depends on the text alone, so it can be applied to each piece of a stream.

// C0 but TAB and LF, DEL, C1, bidi overrides and isolates; a CR before an LF is matched with it.
const UNSAFE = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  if (ch === '\r\n') return '\n';
  if (ch === '\r') return '\\r';
  const code = ch.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with its control characters escaped (line feeds and tabs kept). */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** `text` as one terminal line: line breaks become spaces, control characters are escaped. */
export function terminalLine(text: string): string {
  return terminalText(text.replace(/\s*\n\s*/g, ' '));
}

// Characters JSON.stringify leaves raw that a terminal may still act on (DEL, C1) or that
// break a line for some readers (U+2028, U+2029), plus the bidi controls of terminalText.
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A JSON text with DEL, C1, line/paragraph separators and bidi controls as \u escapes (the same JSON value). */
export function terminalJsonText(json: string): string {
  return json.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON.stringify(value), terminal-safe as terminalJsonText() makes it. */
export function terminalJson(value: unknown): string {
  return terminalJsonText(JSON.stringify(value));
}
