/**
 * bench:mcp — what the user's MCP servers cost an ask before its first model call. The agent
 * asks for the servers' tools on every ask; with the servers running, that must stay well under
 * 50 ms. Beside it, in the same run: one bare `tools/list` round trip to the same server through
 * the MCP SDK (the reference a client without a cache would pay on every ask), and the first
 * start, which the window reports.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpToolbox } from '../src/core/mcp-client/toolbox';

const ROUNDS = 200;
const bin = fileURLToPath(new URL('../bin/deskpilot.js', import.meta.url));
const server = { command: process.execPath, args: [bin, 'mcp'], env: { DESKPILOT_PLATFORM: 'fake' } };

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

const toolbox = new McpToolbox({ desk: server });
let started = performance.now();
const tools = await toolbox.tools();
const firstStartMs = performance.now() - started;
const ours: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  started = performance.now();
  await toolbox.tools();
  ours.push(performance.now() - started);
}
await toolbox.close();

const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StdioClientTransport({ ...server, env: { ...(process.env as Record<string, string>), ...server.env } }));
const bare: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  started = performance.now();
  await client.listTools();
  bare.push(performance.now() - started);
}
await client.close();

console.log(`first start of the server (reported in the window): ${firstStartMs.toFixed(0)} ms, ${tools.length} tools`);
console.log(`tools for an ask, servers running (${ROUNDS} asks): median ${median(ours).toFixed(3)} ms, max ${Math.max(...ours).toFixed(3)} ms`);
console.log(`reference, a bare tools/list round trip: median ${median(bare).toFixed(3)} ms`);
console.log(
  `mcp_tools: per_ask_median_ms=${median(ours).toFixed(3)} per_ask_max_ms=${Math.max(...ours).toFixed(3)} first_start_ms=${firstStartMs.toFixed(0)} vs_list_round_trip=${(median(bare) / median(ours)).toFixed(1)}x`,
);
