import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ValidationError } from '../../shared/errors';
import { describeIssues } from '../../shared/validation';

const strings = z.record(z.string(), z.string());

/** A server Deskpilot starts itself and talks to over stdin/stdout, as Claude Desktop and Cursor write it. */
const stdioServer = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: strings.optional(),
  cwd: z.string().optional(),
});

/** A server already running somewhere, reached over Streamable HTTP. */
const httpServer = z.object({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/ }),
  headers: strings.optional(),
});

const server = z.union([stdioServer, httpServer], { error: 'give `command` (a program to start) or `url` (a running server)' });

export type McpServerConfig = z.infer<typeof server>;
export type McpServers = Record<string, McpServerConfig>;

/**
 * The `mcpServers` object of a Claude Desktop or Cursor config, or that object alone. Every
 * problem is named by its path (`mcpServers: 'files.command' is required`), so the user can find
 * it. An entry another client marks `"disabled": true` is left out, as that client would.
 */
export function parseMcpServers(value: unknown): McpServers {
  const record = typeof value === 'object' && value !== null && 'mcpServers' in value ? (value as { mcpServers: unknown }).mcpServers : value;
  const parsed = z.record(z.string().min(1), server).safeParse(record);
  if (!parsed.success) throw new ValidationError(`mcpServers: ${describeIssues(parsed.error.issues, { input: record })}`);
  const disabled = (name: string) => (record as Record<string, { disabled?: unknown }>)[name]?.disabled === true;
  return Object.fromEntries(Object.entries(parsed.data).filter(([name]) => !disabled(name)));
}

/** A config file the user points to (`--mcp-config`, or one picked in Settings). */
export async function loadMcpConfigFile(file: string): Promise<McpServers> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ValidationError(`cannot read the MCP config ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`the MCP config ${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return parseMcpServers(json);
}
