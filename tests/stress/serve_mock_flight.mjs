// SPDX-License-Identifier: MIT
// Drives serve-mock with one hostile request and, while it is in flight, one-word requests back
// to back; used by wasi-host/test/serve_mock_nested_parts.test.mjs (generous bounds) and the
// hostile-input catalogue (hostile_cases.mjs: the strict 1 s bound of `npm run stress`).
// The hostile body is written in slices, each after the previous one was taken by the socket,
// so the server's reading sets the pace and "answered before the whole body was sent" is
// observable. One-word requests start once the first slice is written and go on, one after the
// other, until the hostile response has ended — so one of them is in flight while the server
// works on the complete hostile body, if it ever gets one.
import { request as httpRequest } from 'node:http';

const SLICE = 1 << 20;
const ONE_WORD = JSON.stringify({ model: 'm', input: 'hi' });

/** Content parts nested in a Responses `function_call_output.output`. */
export function nestedPartsResponsesBody(parts) {
  const output = `[${new Array(parts).fill('{"type":"input_text","text":"x"}').join(',')}]`;
  return `{"model":"m","input":[{"role":"user","content":"go"},` +
    `{"type":"function_call","name":"read_file","arguments":"{}","call_id":"c1"},` +
    `{"type":"function_call_output","call_id":"c1","output":${output}}]}`;
}

/** Content blocks nested in an Anthropic `tool_result.content`. */
export function nestedPartsMessagesBody(parts) {
  const content = `[${new Array(parts).fill('{"type":"text","text":"x"}').join(',')}]`;
  return `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"go"},` +
    `{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"read_file","input":{}}]},` +
    `{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":${content}}]}]}`;
}

/** POSTs `body` in slices: {status, text, bodyBytes, writtenAtResponse, ms}; status 0 = no response (text says why). */
function postInSlices(url, body, started) {
  return new Promise((resolve) => {
    const bytes = Buffer.from(body, 'utf8');
    let written = 0;
    let writtenAtResponse = -1;
    let settled = false;
    const done = (r) => {
      if (settled) return;
      settled = true;
      req.destroy(); // the rest of the body is not sent
      resolve({ ...r, bodyBytes: bytes.length, writtenAtResponse, ms: Date.now() - started });
    };
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) } });
    req.on('response', (res) => {
      writtenAtResponse = written;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => done({ status: res.statusCode, text: `response cut: ${e.message}` }));
    });
    req.on('error', (e) => { if (writtenAtResponse < 0) done({ status: 0, text: String(e) }); });
    const writeRest = () => {
      while (written < bytes.length && writtenAtResponse < 0 && !req.destroyed) {
        const slice = bytes.subarray(written, written + SLICE);
        written += slice.length;
        if (!req.write(slice)) {
          req.once('drain', writeRest);
          return;
        }
      }
      if (written === bytes.length && writtenAtResponse < 0) req.end();
    };
    writeRest();
  });
}

/**
 * Sends the hostile `body` to `baseURL + path` and one-word requests to /responses meanwhile:
 * {hostile: postInSlices' result, oneWord: [{status, ms}], maxOneWordMs}.
 */
export async function hostileWithOneWordRequests(baseURL, path, body) {
  const started = Date.now();
  let hostileEnded = false;
  const hostile = postInSlices(new URL(baseURL + path), body, started).then((r) => {
    hostileEnded = true;
    return r;
  });
  const oneWord = [];
  do {
    const t = Date.now();
    let status = 0;
    try {
      const res = await fetch(`${baseURL}/responses`, { method: 'POST', body: ONE_WORD, signal: AbortSignal.timeout(120000) });
      status = res.status;
      await res.text();
    } catch {
      status = 0;
    }
    oneWord.push({ status, ms: Date.now() - t });
  } while (!hostileEnded);
  return { hostile: await hostile, oneWord, maxOneWordMs: Math.max(...oneWord.map((r) => r.ms)) };
}
