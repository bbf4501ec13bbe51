/**
 * `workflow_run` over MCP agrees with `deskpilot workflow run`: a dry run with a step that does not
 * resolve is a failed call (isError, `halted: true`), as the CLI exits 3 for it; one that resolves
 * every step is not.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActionEngine } from '../core/actions/engine';
import { FakePlatform } from '../core/platform/fake/fake-platform';
import { runStoppedShort } from '../core/workflows/report';
import { DEFAULT_MAX_CHARS } from './options';
import { createMcpServer } from './server';

const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-mcp-workflows-'));
const save = (name: string, steps: unknown[]): void =>
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ format: 'deskpilot-workflow', version: 1, name, app: { name: 'Deskpilot Fixture' }, steps }));
save('fill', [{ action: 'set_value', target: { role: 'textfield', name: 'Name' }, value: 'Ada' }]);
save('lost', [
  { action: 'set_value', target: { role: 'textfield', name: 'Name' }, value: 'Ada' },
  { action: 'click', target: { role: 'button', name: 'No such button anywhere' } },
]);

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  vi.unstubAllEnvs();
});

async function connect(): Promise<Client> {
  vi.stubEnv('DESKPILOT_WORKFLOWS_DIR', dir);
  const platform = new FakePlatform();
  const { server } = createMcpServer({
    options: { maxChars: DEFAULT_MAX_CHARS, readOnly: false, apps: undefined },
    createCore: () => Promise.resolve({ platform, engine: new ActionEngine({ platform }) }),
    log: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

describe('workflow_run dry runs over MCP', () => {
  it('fail when a step does not resolve, as the CLI exits 3, and succeed when every step does', async () => {
    const client = await connect();
    const lost = (await client.callTool({ name: 'workflow_run', arguments: { name: 'lost', dryRun: true } })) as CallToolResult;
    const report = lost.structuredContent as { status: string; halted: boolean; steps: { status: string }[] };
    expect(lost.isError).toBe(true);
    expect(report).toMatchObject({ status: 'planned', halted: true });
    expect(report.steps.map((step) => step.status)).toEqual(['planned', 'unresolved']);
    // The CLI's exit code reads the same predicate.
    expect(runStoppedShort(report as never)).toBe(true);

    const fill = (await client.callTool({ name: 'workflow_run', arguments: { name: 'fill', dryRun: true } })) as CallToolResult;
    expect(fill.isError).toBeUndefined();
    expect(fill.structuredContent).toMatchObject({ status: 'planned', halted: false });
  });
});
