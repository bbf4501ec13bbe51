import { readFile } from 'node:fs/promises';
import { ValidationError } from '../../shared/errors';
import { parseMcpServers, type McpServers } from '../../shared/mcp-servers';

export type { McpServerConfig, McpServers } from '../../shared/mcp-servers';

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
