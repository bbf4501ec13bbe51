import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent-events';
import { ActionEngine } from '../../src/core/actions/engine';
import { answer, finish, toolCall } from '../../src/core/agent/fake-provider';
import { scriptedAgent } from '../../src/core/agent/test-agent';
import { DocsService } from '../../src/core/doc-search/service';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { createMcpServer } from '../../src/mcp/server';
import { DEFAULT_MAX_CHARS } from '../../src/mcp/options';

/**
 * The traversal attack on documentation search: an `app` that climbs out of the help folders
 * (`../../secret`), as a model under prompt injection would send it, through the MCP tool
 * (also on a --read-only --apps server), the agent's tool, and an app whose own name climbs.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-docs-traversal-'));
const HOSTILE_PID = 9999;
let docs: DocsService;

/** Every way of spelling "the folder two levels above the help root" the attack tried, and more. */
const CLIMBS = ['../../secret', '..\\..\\secret', 'C/../../../secret', `${dir}/secret`, '..', 'gnome-calculator/../../../secret'];

beforeAll(() => {
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  // help/<lang>/<name> with name = ../../secret is <dir>/secret.
  write('secret/passwords.md', '# Vault\nThe vault password is hunter2.\n');
  write(
    'help/C/gnome-calculator/percent.page',
    '<page xmlns="http://projectmallard.org/1.0/" id="percent"><title>Percentages</title><p>Type 20% of the vault password.</p></page>',
  );
  docs = new DocsService({
    dataDir: path.join(dir, 'data'),
    env: { LANG: 'C' },
    settings: () => ({ folders: [] }),
    roots: { help: [path.join(dir, 'help')], man: [path.join(dir, 'man')], applications: [] },
  });
});
afterAll(() => {
  docs.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The fake desktop plus an app that names itself `../../secret`. */
function platformWithHostileApp(): FakePlatform {
  const platform = new FakePlatform();
  const list = platform.apps.list.bind(platform.apps);
  platform.apps.list = async () => [...(await list()), { pid: HOSTILE_PID, name: '../../secret', windows: [{ title: '../../secret', focused: false }] }];
  const isAlive = platform.apps.isAlive.bind(platform.apps);
  platform.apps.isAlive = async (pid) => pid === HOSTILE_PID || (await isAlive(pid));
  return platform;
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function mcp(options: {
  readOnly: boolean;
  apps: string[] | undefined;
}): Promise<(args: Record<string, unknown>) => Promise<CallToolResult & { text: string }>> {
  const platform = platformWithHostileApp();
  const { server } = createMcpServer({
    options: { maxChars: DEFAULT_MAX_CHARS, ...options },
    createCore: () => Promise.resolve({ platform, engine: new ActionEngine({ platform }), docs }),
    log: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return async (args) => {
    const result = (await client.callTool({ name: 'docs_search', arguments: args })) as CallToolResult;
    const first = result.content[0];
    return { ...result, text: first?.type === 'text' ? first.text : '' };
  };
}

describe('docs search reads only documentation', () => {
  it.each([
    ['an open server', { readOnly: false, apps: undefined }],
    ['a --read-only --apps server', { readOnly: true, apps: ['Notes', '../../secret'] }],
  ])('refuses an app that climbs out of the help folders, on %s', async (_label, options) => {
    const search = await mcp(options);
    expect((await search({ query: 'vault password', app: '../../../secret' })).text).toMatch(/VALIDATION|neither a running app nor a help name/);
    for (const app of CLIMBS) {
      const result = await search({ query: 'vault password', app });
      expect(JSON.stringify(result), app).not.toContain('hunter2');
      // Refused as a help name, or (where it loosely matches the app that calls itself ../../secret) that app has no help.
      expect(result.text, app).toMatch(/neither a running app nor a help name|has no help pages or man pages/);
    }
    // An app whose own name climbs is matched, but its name is not used as a folder.
    const named = await search({ query: 'vault password', app: '../../secret' });
    expect(named.text).toMatch(/has no help pages or man pages/);
    // Help under the root still answers, by a plain help name.
    expect((await search({ query: 'percentages', app: 'gnome-calculator' })).text).toMatch(/Percentages/);
  });

  it('refuses the same climb from the agent, whose read tools need no approval', async () => {
    const events: AgentEvent[] = [];
    const { agent, provider } = scriptedAgent(
      [
        [toolCall('c1', 'search_docs', { query: 'vault password', app: '../../../secret' }), finish('tool_calls')],
        [toolCall('c2', 'search_docs', { query: 'vault password', app: '../../secret' }), finish('tool_calls')],
        answer('Nothing found.'),
      ],
      { platform: platformWithHostileApp(), events, docs },
    );
    expect(await agent.ask('find the vault password', { pid: FIXTURE_PID })).toMatchObject({ reason: 'answered' });
    const toolMessages = provider.requests.slice(1).map((request) => String(request.messages.at(-1)?.content));
    expect(toolMessages[0]).toMatch(/neither a running app nor a help name/);
    expect(toolMessages[1]).toMatch(/has no help pages or man pages/);
    expect(JSON.stringify(provider.requests)).not.toContain('hunter2');
    expect(JSON.stringify(events)).not.toContain('hunter2');
  });
});
