/**
 * An MCP server over Streamable HTTP on 127.0.0.1, in this process: the SDK's transport, one
 * per session, behind a bare node:http server that records the Authorization header of every
 * request and can be told to answer every request with an HTTP error, or to forget its sessions
 * (as a restarted server would). Used by test/mcp-client/http-transport.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** One pixel of PNG, as a screenshot tool would send it. */
export const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export interface HttpMcpServer {
  url: string;
  /** The Authorization header of each request, in order (`undefined` when there was none). */
  authorizations: (string | undefined)[];
  /** Each request's method, in order. */
  methods: string[];
  /** Sessions the server holds now. */
  sessions(): number;
  /** Every request is answered with this status (401, 500) until it is set back to undefined. */
  failWith: number | undefined;
  /** Forgets every session, as a restarted server does: their requests get 404. */
  forgetSessions(): Promise<void>;
  close(): Promise<void>;
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'web', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  server.registerTool(
    'echo',
    { description: 'Says the text back', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true } },
    ({ text: value }) => text(`echo: ${value}`),
  );
  server.registerTool('shot', { description: 'A screenshot', annotations: { readOnlyHint: true } }, () => ({
    content: [
      { type: 'text' as const, text: 'the screen' },
      { type: 'image' as const, mimeType: 'image/png', data: PIXEL },
    ],
  }));
  server.registerTool('change', { description: 'Adds a tool' }, () => {
    server.registerTool('added', { description: 'Appeared later' }, () => text('new tool'));
    return text('changed');
  });
  return server;
}

export async function startHttpMcpServer(): Promise<HttpMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const sockets = new Set<Socket>();
  const state: HttpMcpServer = {
    url: '',
    authorizations: [],
    methods: [],
    sessions: () => transports.size,
    failWith: undefined,
    forgetSessions: async () => {
      const open = [...transports.values()];
      transports.clear();
      await Promise.all(open.map((transport) => transport.close()));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        http.close(() => resolve());
      }),
  };
  const http: Server = createServer((request, response) => {
    state.authorizations.push(request.headers.authorization);
    state.methods.push(request.method ?? '');
    if (state.failWith !== undefined) {
      response.writeHead(state.failWith, { 'content-type': 'text/html' });
      response.end(`<html><body>${'error page '.repeat(500)}</body></html>`);
      return;
    }
    const id = request.headers['mcp-session-id'];
    const transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (transport === undefined && typeof id === 'string') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (session) => void transports.set(session, created),
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) transports.delete(created.sessionId);
      };
      void mcpServer()
        .connect(created)
        .then(() => created.handleRequest(request, response));
      return;
    }
    void transport.handleRequest(request, response);
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return state;
}
