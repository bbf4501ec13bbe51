/**
 * The MCP SDK's client side, loaded on first use. It costs about a quarter of a second of CPU
 * (the SDK, Ajv and its formats, cross-spawn), which every CLI command and the MCP server would
 * otherwise pay at start-up through the runtime, though only an ask with MCP servers configured
 * ever starts one.
 */
export async function loadClientSdk() {
  const [client, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    CallToolResultSchema: types.CallToolResultSchema,
    ErrorCode: types.ErrorCode,
    McpError: types.McpError,
  };
}

export type ClientSdk = Awaited<ReturnType<typeof loadClientSdk>>;

let loading: Promise<ClientSdk> | undefined;

/** The SDK, imported once per process however many servers start. */
export function clientSdk(): Promise<ClientSdk> {
  loading ??= loadClientSdk();
  return loading;
}
