/**
 * An MCP server that misbehaves on purpose, one tool per way: it hangs, crashes mid-call,
 * returns a megabyte, reports an error, changes its tool list, and writes a line that is not
 * JSON-RPC. Run over stdio by test/mcp-client/external-tools.test.ts.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'misbehaving', version: '1' }, { capabilities: { tools: { listChanged: true } } });
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

server.registerTool(
  'echo',
  { description: 'Says the text back', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true } },
  ({ text: value }) => text(`echo: ${value}`),
);
server.registerTool('env', { description: 'Names the environment variables it was started with', annotations: { readOnlyHint: true } }, () =>
  text(Object.keys(process.env).sort().join(',')),
);
server.registerTool('hang', { description: 'Never answers' }, () => new Promise<never>(() => undefined));
server.registerTool('crash', { description: 'Exits mid-call' }, () => process.exit(3));
server.registerTool('huge', { description: 'Returns a megabyte' }, () => text('x'.repeat(1_000_000)));
server.registerTool('fail', { description: 'Reports an error' }, () => ({ ...text('the invoice folder is empty'), isError: true }));
server.registerTool('change', { description: 'Adds a tool' }, () => {
  server.registerTool('added', { description: 'Appeared later' }, () => text('new tool'));
  return text('changed');
});
server.registerTool('garble', { description: 'Writes a line that is not JSON-RPC, then answers' }, () => {
  process.stdout.write('this is not json\n');
  return text('after garbage');
});

await server.connect(new StdioServerTransport());
