#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A small MCP server for the MCP tests (docs/mcp.md), on stdio, built with the official SDK's
// McpServer. Its tools change the server itself so tests can cause what real servers do:
//   echo {text}            -> "echo: <text>"
//   add_tool {name}        registers tool <name> (answers "<name> ran"): a tools/list_changed
//   remove_tool {name}     removes a tool added by add_tool: a tools/list_changed
//   crash                  the process exits with status 3 (a server that dies mid-call)
//   slow {ms}              answers after ms milliseconds
//   image                  a text block and a 1x1 PNG
//   fail                   an isError result
//   structured             structuredContent only (no text block)
// Options (argv): --name NAME (server name, default "fixture"), --pid-file FILE (writes its pid).
// Invariant: the process ends when its stdin closes (the client went away).
import { writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const arg = (flag) => {
  const i = process.argv.indexOf(flag);
  return i < 0 ? undefined : process.argv[i + 1];
};
const pidFile = arg('--pid-file');
if (pidFile) writeFileSync(pidFile, String(process.pid));

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const server = new McpServer({ name: arg('--name') ?? 'fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
const added = new Map();
const text = (t) => ({ content: [{ type: 'text', text: t }] });

server.registerTool('echo', { description: 'Echoes the text back.', inputSchema: { text: z.string().describe('What to echo') } },
  async ({ text: t }) => text(`echo: ${t}`));
server.registerTool('add_tool', { description: 'Registers a new tool with this name.', inputSchema: { name: z.string() } },
  async ({ name }) => {
    if (!added.has(name)) {
      added.set(name, server.registerTool(name, { description: `Added on request (${name}).`, inputSchema: { note: z.string().optional() } },
        async () => text(`${name} ran`)));
    }
    return text(`added ${name}`);
  });
server.registerTool('remove_tool', { description: 'Removes a tool added by add_tool.', inputSchema: { name: z.string() } },
  async ({ name }) => {
    added.get(name)?.remove();
    added.delete(name);
    return text(`removed ${name}`);
  });
server.registerTool('crash', { description: 'Exits the server process.' }, async () => {
  process.stderr.write('fixture: exiting on request\n');
  process.exit(3);
});
server.registerTool('slow', { description: 'Answers after ms milliseconds.', inputSchema: { ms: z.number() } },
  async ({ ms }) => {
    await new Promise((r) => setTimeout(r, ms));
    return text(`slept ${ms} ms`);
  });
server.registerTool('image', { description: 'A tiny image.' }, async () => ({
  content: [{ type: 'text', text: 'a 1x1 PNG:' }, { type: 'image', data: PNG_1X1, mimeType: 'image/png' }],
}));
server.registerTool('fail', { description: 'Always fails.' }, async () => ({ content: [{ type: 'text', text: 'the fixture failed on purpose' }], isError: true }));
server.registerTool('structured', { description: 'Structured content only.' }, async () => ({ content: [], structuredContent: { b: 2, a: 1 } }));

process.stdin.on('close', () => process.exit(0));
await server.connect(new StdioServerTransport());
