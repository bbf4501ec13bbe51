/**
 * The README and docs/mcp.md name exactly the tools the server offers. The list is read from a
 * running server (tools/list), so a tool added to the core shows up here until both documents name it.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { ActionEngine } from '../../src/core/actions/engine';
import { FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { createMcpServer } from '../../src/mcp/server';

const read = (file: string): string => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

async function offered(): Promise<string[]> {
  const platform = new FakePlatform();
  const { server } = createMcpServer({
    options: { maxChars: 20_000, readOnly: false, apps: undefined },
    createCore: () => Promise.resolve({ platform, engine: new ActionEngine({ platform }) }),
    log: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'docs', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((tool) => tool.name).sort();
}

/** The tool names in backticks in the README's sentence that introduces the server. */
function readmeTools(): string[] {
  const section = read('README.md').split('## MCP server')[1] ?? '';
  const sentence = /offers the engine's tools \(([^)]*)\)/.exec(section)?.[1] ?? '';
  return [...sentence.matchAll(/`(\w+)`/g)].map((match) => match[1] as string).sort();
}

/** The first column of docs/mcp.md's tools table. */
function docsTableTools(): string[] {
  const section = read('docs/mcp.md').split('## Tools')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1] as string).sort();
}

describe('documented MCP tools', () => {
  it('the README lists exactly the tools the server offers', async () => {
    expect(readmeTools()).toEqual(await offered());
  });

  it('docs/mcp.md tabulates exactly the tools the server offers', async () => {
    expect(docsTableTools()).toEqual(await offered());
  });
});
