import { z } from 'zod';
import { ValidationError } from './errors';
import { describeIssues } from './validation';

/*
 * The user's MCP servers, in the `mcpServers` shape Claude Desktop and Cursor write. Parsed the
 * same way in main (Settings), the host and the CLI.
 */
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

/** What stands for a stored secret (an `env` or `headers` value) where people see the config: the value itself never leaves main. */
export const STORED_SECRET = '(stored)';

/** The config as the Settings editor shows it: every env and header value replaced by STORED_SECRET. */
export function redactMcpServers(servers: McpServers): McpServers {
  const hide = (values: Record<string, string> | undefined) =>
    values === undefined ? undefined : Object.fromEntries(Object.keys(values).map((key) => [key, STORED_SECRET]));
  return Object.fromEntries(
    Object.entries(servers).map(([name, config]) => {
      if ('url' in config) return [name, { ...config, ...(config.headers === undefined ? {} : { headers: hide(config.headers) }) }];
      return [name, { ...config, ...(config.env === undefined ? {} : { env: hide(config.env) }) }];
    }),
  );
}

/** An edited config with every STORED_SECRET put back from the stored one (same server, same key); a secret with no stored value is refused. */
export function restoreMcpSecrets(edited: McpServers, stored: McpServers): McpServers {
  const restore = (name: string, field: 'env' | 'headers', values: Record<string, string> | undefined): Record<string, string> | undefined => {
    if (values === undefined) return undefined;
    const before = stored[name] as Partial<Record<'env' | 'headers', Record<string, string>>> | undefined;
    return Object.fromEntries(
      Object.entries(values).map(([key, value]) => {
        if (value !== STORED_SECRET) return [key, value];
        const kept = before?.[field]?.[key];
        if (kept === undefined)
          throw new ValidationError(`mcpServers: '${name}.${field}.${key}' says ${STORED_SECRET} but no value is stored for it; type the value`);
        return [key, kept];
      }),
    );
  };
  return Object.fromEntries(
    Object.entries(edited).map(([name, config]) => {
      if ('url' in config) return [name, { ...config, ...(config.headers === undefined ? {} : { headers: restore(name, 'headers', config.headers) }) }];
      return [name, { ...config, ...(config.env === undefined ? {} : { env: restore(name, 'env', config.env) }) }];
    }),
  );
}

/** What the user hears of their MCP servers: each program says it in its own words and language. */
export type McpNotice =
  | { kind: 'started'; server: string; tools: number }
  | { kind: 'stopped'; server: string }
  | { kind: 'failed'; server: string; problem: string }
  /** Some of its tools were left out (too many, a schema too large or too deep), or it is still starting. */
  | { kind: 'limited'; server: string; problem: string };
