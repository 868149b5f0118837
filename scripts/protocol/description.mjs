// SPDX-License-Identifier: MIT
// Loads and checks core/protocol.json (scripts/gen_protocol.mjs). Every renderer takes the
// checked description this returns; a malformed description fails here with the path of the
// problem, never as odd output.
// Invariants: enum and config names are unique; every `enum` field names a declared enum and
// its default is one of the enum's values; wire codes are snake_case; C++ names derive from wire
// names one way only (`pascal`), so they never need to be written twice.

const FIELD_TYPES = new Set([
  'string', 'integer', 'boolean', 'string[]', 'enum', 'object', 'object[]', 'json', 'json-object', 'bytes',
]);

/** "read-only" -> "ReadOnly", "session.start" -> "SessionStart", "not_found" -> "NotFound". */
export function pascal(wire) {
  return wire.split(/[-_.\s/]+/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join('');
}

/** "a, b or c" (the wording of the engine's invalid_config messages). */
export function orList(values) {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

function fail(where, message) {
  throw new Error(`gen_protocol: ${where}: ${message}`);
}

function checkFields(fields, where, enums) {
  const keys = new Set();
  for (const f of fields) {
    const at = `${where}.${f.key}`;
    if (typeof f.key !== 'string' || !/^[a-z][a-z0-9_]*$/.test(f.key)) fail(at, 'key must be snake_case');
    if (keys.has(f.key)) fail(at, 'duplicate key');
    keys.add(f.key);
    if (!FIELD_TYPES.has(f.type)) fail(at, `unknown type ${f.type}`);
    if (typeof f.doc !== 'string') fail(at, 'needs a doc string ("" for none)');
    if (f.type === 'enum') {
      const e = enums.get(f.enum);
      if (!e) fail(at, `names unknown enum ${f.enum}`);
      if (f.default !== undefined && f.default !== null && !e.values.some((v) => v.wire === f.default)) {
        fail(at, `default ${f.default} is not a value of ${f.enum}`);
      }
    }
    if (f.type === 'object' || f.type === 'object[]') {
      if (typeof f.ts !== 'string') fail(at, 'an object field needs a `ts` type name');
      if (!Array.isArray(f.fields)) fail(at, 'an object field needs `fields`');
      checkFields(f.fields, at, enums);
    }
  }
}

/** Parses and checks the description; returns it with `enumsByName` added. */
export function loadDescription(text, path) {
  let d;
  try {
    d = JSON.parse(text);
  } catch (e) {
    fail(path, `invalid JSON (${e.message})`);
  }
  const enums = new Map();
  for (const e of d.enums ?? []) {
    if (!/^[A-Z][A-Za-z]+$/.test(e.name ?? '')) fail(`enums.${e.name}`, 'name must be PascalCase');
    if (enums.has(e.name)) fail(`enums.${e.name}`, 'duplicate enum');
    if (!Array.isArray(e.values) || e.values.length === 0) fail(`enums.${e.name}`, 'needs values');
    const seen = new Set();
    for (const v of e.values) {
      if (typeof v.wire !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/.test(v.wire)) fail(`enums.${e.name}`, `bad wire value ${v.wire}`);
      if (seen.has(pascal(v.wire))) fail(`enums.${e.name}`, `two values map to k${pascal(v.wire)}`);
      seen.add(pascal(v.wire));
    }
    enums.set(e.name, e);
  }
  const warnings = new Set();
  for (const w of d.warnings ?? []) {
    if (!/^[a-z][a-z0-9_]*$/.test(w.code ?? '')) fail('warnings', `bad code ${w.code}`);
    if (warnings.has(w.code)) fail('warnings', `duplicate code ${w.code}`);
    warnings.add(w.code);
  }
  const codes = (d.error_codes ?? []).filter((c) => c.group === undefined);
  for (const c of codes) {
    if (!/^[A-Z][A-Za-z]+$/.test(c.name ?? '') || !/^[a-z][a-z0-9_]*$/.test(c.wire ?? '')) {
      fail('error_codes', `bad entry ${JSON.stringify(c)}`);
    }
    if (c.doc.includes('"')) fail('error_codes', `${c.wire}: no double quotes in docs (the .def is a C string)`);
  }
  if (codes.length === 0) fail('error_codes', 'no codes');
  if (!d.config || !Array.isArray(d.config.fields)) fail('config', 'needs fields');
  checkFields(d.config.fields, 'config', enums);
  for (const side of ['engine', 'session']) {
    const names = new Set();
    for (const m of d.methods?.[side] ?? []) {
      if (names.has(m.name)) fail(`methods.${side}`, `duplicate ${m.name}`);
      names.add(m.name);
      if (m.kind !== 'query' && m.kind !== 'mutation') fail(`methods.${side}.${m.name}`, 'kind is query or mutation');
    }
  }
  for (const list of ['effects', 'events', 'deliveries']) {
    if (!Array.isArray(d[list]) || d[list].length === 0) fail(list, 'needs entries');
  }
  return { ...d, enumsByName: enums, errorCodes: codes };
}

/** The CLI flag -> enum table (enums with `cli_flag`). */
export function cliEnums(d) {
  return d.enums.filter((e) => e.cli_flag).map((e) => ({ flag: e.cli_flag, name: e.name, values: e.values.map((v) => v.wire) }));
}
