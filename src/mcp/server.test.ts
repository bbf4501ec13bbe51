import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { UnsupportedOperationError } from '../shared/errors';
import { ActionEngine } from '../core/actions/engine';
import { FakeClock, systemClock, type Clock } from '../core/clock';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from '../core/platform/fake/fake-platform';
import { DEFAULT_MAX_CHARS, type McpOptions } from './options';
import type { RawNode } from '../core/ui/ids';
import { createMcpServer } from './server';

const clients: Client[] = [];
let logs: string[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  logs = [];
});

async function connect(
  options: Partial<McpOptions> = {},
  platform: FakePlatform | (() => Promise<FakePlatform>) = new FakePlatform(),
  clock: Clock = systemClock,
): Promise<Client> {
  const make = typeof platform === 'function' ? platform : () => Promise.resolve(platform);
  const { server } = createMcpServer({
    options: { maxChars: DEFAULT_MAX_CHARS, readOnly: false, apps: undefined, ...options },
    createCore: async () => {
      const made = await make();
      return { platform: made, engine: new ActionEngine({ platform: made, clock }) };
    },
    log: (line) => logs.push(line),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { ...result, text: first?.type === 'text' ? first.text : '' };
}

async function idOf(client: Client, name: string, role?: string): Promise<string> {
  const found = await call(client, 'ui_find', { pid: FIXTURE_PID, name, ...(role === undefined ? {} : { role }) });
  const id = (found.structuredContent as { matches: { id: string }[] }).matches[0]?.id;
  if (id === undefined) throw new Error(`no ${name}: ${found.text}`);
  return id;
}

describe('MCP server over the fake platform', () => {
  it('lists five tools with input and output schemas and descriptions that teach the loop', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'ui_apps',
      'ui_tree',
      'ui_find',
      'ui_read',
      'ui_screenshot',
      'ui_action',
      'ui_fill_form',
      'ui_wait_for',
      'ui_close_window',
      'docs_search',
      'workflow_run',
    ]);
    for (const tool of tools.slice(0, 5)) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const action = tools.find((tool) => tool.name === 'ui_action');
    expect(action?.description).toMatch(/changed: false with success: true is a soft failure/);
    expect(action?.description).toMatch(/scroll may not be observable/);
    expect(action?.inputSchema.properties).toHaveProperty('toId');
    expect(action?.inputSchema.required).toEqual(['action']);
    expect(client.getInstructions()).toMatch(/observe → act → verify/);
  });

  it('observes, acts and verifies: find the check box, click it, read it back', async () => {
    const client = await connect();
    const apps = await call(client, 'ui_apps', {});
    expect(apps.text).toContain('pid 4242 "Deskpilot Fixture"');
    const id = await idOf(client, 'Enable feature', 'checkbox');
    const acted = await call(client, 'ui_action', { pid: FIXTURE_PID, action: 'click', id });
    expect(acted.isError).toBeUndefined();
    expect(acted.structuredContent).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { states: { checked: true } } });
    expect(acted.text).toMatch(/^click ran via accessibility; changed: /);
    const tree = await call(client, 'ui_tree', { app: 'deskpilot fixture', rootId: id });
    expect(tree.text).toMatch(new RegExp(`\\[${id}\\] checkbox "Enable feature" \\(checked\\)`));
    expect(tree.structuredContent).toMatchObject({ pid: FIXTURE_PID, app: 'Deskpilot Fixture', rootId: id, truncated: false });
  });

  it('gives ui_action as a short summary in the text and the full result only in the structured content', async () => {
    const client = await connect();
    const id = await idOf(client, 'Enable feature', 'checkbox');
    const acted = await call(client, 'ui_action', { pid: FIXTURE_PID, action: 'click', id });
    expect(acted.text).toMatch(new RegExp(`^click ran via accessibility; changed: [^\n]+\nnow: \\[${id}\\] checkbox "Enable feature" \\(checked\\)$`));
    expect(acted.structuredContent).toMatchObject({ success: true, nodeBefore: { id }, nodeAfter: { id }, changed: true });
    const failed = await call(client, 'ui_action', { pid: FIXTURE_PID, action: 'click', id: `${id}x` });
    expect(failed.text).toMatch(/^click failed: NODE_NOT_FOUND: node not found: /);
    expect(failed.structuredContent).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    for (const result of [acted, failed]) {
      expect(result.text).not.toMatch(/"(success|nodeBefore|nodeAfter)"/);
      expect(result.text.length).toBeLessThan(JSON.stringify(result.structuredContent).length);
    }
  });

  it('says what changed: false means, and that scroll is the exception', async () => {
    // A click that changes nothing is looked at until the settle bound: on this clock, without waiting it out.
    const client = await connect({}, new FakePlatform(), new FakeClock());
    const label = await idOf(client, 'Ready', 'label');
    const clicked = await call(client, 'ui_action', { pid: FIXTURE_PID, action: 'click', id: label });
    expect(clicked.structuredContent).toMatchObject({ success: true, changed: false });
    expect(clicked.text).toMatch(/changed: false: nothing observable changed \(a soft failure\)/);
    const list = await idOf(client, 'Items', 'list');
    const scrolled = await call(client, 'ui_action', { pid: FIXTURE_PID, action: 'scroll', id: list, direction: 'down', amount: 5 });
    expect(scrolled.isError).toBeUndefined();
    if (scrolled.structuredContent?.['changed'] === false) expect(scrolled.text).toMatch(/normal for scroll/);
  });

  it('reads the full text of a node and never a secret', async () => {
    const platform = new FakePlatform();
    platform.app(FIXTURE_PID).get('name').value = 'a long value '.repeat(50);
    platform.app(FIXTURE_PID).get('password').value = 'hunter2';
    const client = await connect({}, platform);
    const read = await call(client, 'ui_read', { pid: FIXTURE_PID, id: await idOf(client, 'Name', 'textfield') });
    expect(read.text).toContain('a long value '.repeat(50).trim());
    const whole = await call(client, 'ui_read', {
      pid: FIXTURE_PID,
      id: (await call(client, 'ui_tree', { pid: FIXTURE_PID, depth: 0 })).structuredContent?.['rootId'] as string,
    });
    expect(whole.text).toContain('(secret field; its value is never read)');
    expect(JSON.stringify(whole)).not.toContain('hunter2');
  });

  it('keeps every result within --max-chars and says how to ask for a subtree', async () => {
    const client = await connect({ maxChars: 1000 });
    const tree = await call(client, 'ui_tree', { pid: FIXTURE_PID });
    const list = await idOf(client, 'Items', 'list');
    const depth = await call(client, 'ui_tree', { pid: FIXTURE_PID, depth: 1 });
    for (const result of [
      tree,
      depth,
      await call(client, 'ui_find', { pid: FIXTURE_PID, role: 'listitem', limit: 200 }),
      await call(client, 'ui_tree', { pid: FIXTURE_PID, rootId: list }),
    ]) {
      expect(result.text.length).toBeLessThanOrEqual(1000);
      expect(JSON.stringify(result.structuredContent).length).toBeLessThanOrEqual(1000);
    }
    expect(depth.text).toMatch(new RegExp(`… depth limit: \\d+ more under ${list}`));
    expect(depth.text).toMatch(/call ui_tree again with rootId/);
    expect(depth.structuredContent?.['truncated']).toBe(true);
  });

  it('cuts a big tree to the budget, keeping its own "more under <id>" lines', async () => {
    const platform = new FakePlatform();
    // Every row showing, so the tree is far bigger than the budget.
    const getTree = platform.accessibility.getTree.bind(platform.accessibility);
    const showAll = (node: RawNode): RawNode => ({
      ...node,
      states: { ...node.states, visible: true },
      ...(node.children === undefined ? {} : { children: node.children.map(showAll) }),
    });
    platform.accessibility.getTree = async (pid, options) => showAll(await getTree(pid, options));
    const client = await connect({ maxChars: 1000 }, platform);
    const list = await idOf(client, 'Items', 'list');
    const tree = await call(client, 'ui_tree', { pid: FIXTURE_PID, maxTokens: 20_000 });
    expect(tree.text.length).toBeLessThanOrEqual(1000);
    expect(JSON.stringify(tree.structuredContent).length).toBeLessThanOrEqual(1000);
    expect(tree.text).toMatch(new RegExp(`… truncated: \\d+ more under ${list}\n`));
    expect(tree.text).toMatch(/call ui_tree again with rootId set to an id/);
    expect(tree.structuredContent?.['truncated']).toBe(true);
    const whole = await connect({}, platform);
    expect((await call(whole, 'ui_tree', { pid: FIXTURE_PID })).text).toContain('listitem "Item 200"');
  });
});

describe('MCP server errors', () => {
  it('bad arguments are VALIDATION tool errors naming the field, for every tool', async () => {
    const client = await connect();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['ui_apps', { extra: 1 }, /unknown field 'extra'/],
      ['ui_tree', { pid: 'abc' }, /'pid': .*expected number/],
      ['ui_tree', {}, /give 'pid' or 'app'/],
      ['ui_tree', { pid: FIXTURE_PID, depth: -1 }, /'depth'/],
      ['ui_find', { pid: FIXTURE_PID }, /at least one of id, role, name, description or text/],
      ['ui_read', { pid: FIXTURE_PID }, /'id'/],
      ['ui_action', { pid: FIXTURE_PID, action: 'type', id: 'x' }, /'type' needs 'text'/],
      ['ui_action', { pid: FIXTURE_PID, action: 'explode' }, /'action' must be one of click, set_value/],
      ['ui_action', { pid: FIXTURE_PID, action: 'key', key: 'notakey' }, /unknown key 'notakey'/],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toMatch(/^VALIDATION: /);
      expect(result.text, name).toMatch(message);
      expect(result._meta?.['deskpilot/error']).toMatchObject({ code: 'VALIDATION' });
    }
    expect((await call(client, 'ui_apps', {})).isError).toBeUndefined();
  });

  it('an unknown id is NODE_NOT_FOUND with candidates, in ui_tree, ui_read and ui_action', async () => {
    const client = await connect();
    const id = await idOf(client, 'Enable feature', 'checkbox');
    for (const [name, args] of [
      ['ui_tree', { pid: FIXTURE_PID, rootId: `${id}x` }],
      ['ui_read', { pid: FIXTURE_PID, id: `${id}x` }],
      ['ui_action', { pid: FIXTURE_PID, action: 'click', id: `${id}x` }],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toMatch(
        new RegExp(`^(click failed: )?NODE_NOT_FOUND: node not found: '${id}x'.*Closest: \\[${id}\\] checkbox "Enable feature"`),
      );
    }
    const acted = await call(client, 'ui_action', { pid: FIXTURE_PID, action: 'click', id: `${id}x` });
    expect(acted.structuredContent).toMatchObject({
      success: false,
      error: { code: 'NODE_NOT_FOUND', data: { candidates: [expect.objectContaining({ id })] } },
    });
  });

  it('a failed result carries its typed error in _meta, as a thrown one does', async () => {
    const client = await connect();
    const failed = await call(client, 'ui_action', { pid: FIXTURE_PID, action: 'click', id: 'zz-no-such-node' });
    expect(failed.isError).toBe(true);
    expect(failed._meta).toMatchObject({ 'deskpilot/error': { code: 'NODE_NOT_FOUND', isRetryable: false } });
    const thrown = await call(client, 'ui_tree', { pid: 999_999 });
    expect(thrown._meta).toMatchObject({ 'deskpilot/error': { code: expect.any(String) as unknown } });
  });

  it('a dead pid is PROCESS_EXITED, and the server keeps serving', async () => {
    const platform = new FakePlatform();
    const client = await connect({}, platform);
    platform.kill(NOTES_PID);
    const result = await call(client, 'ui_tree', { pid: NOTES_PID });
    expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/^PROCESS_EXITED: process not running \(pid 4243\)\. .*ui_apps/) });
    expect((await call(client, 'ui_apps', {})).text).not.toContain('Notes');
  });

  it('no platform is UI_NOT_AVAILABLE on each call, and a later call tries again', async () => {
    let attempts = 0;
    const client = await connect({}, () => {
      attempts += 1;
      return Promise.reject(new UnsupportedOperationError('no X server listens on :4711'));
    });
    for (const name of ['ui_apps', 'ui_tree']) {
      const result = await call(client, name, { pid: 1 });
      const expected = name === 'ui_apps' ? /^VALIDATION/ : /^UI_NOT_AVAILABLE: no X server listens on :4711/;
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(expected);
    }
    expect((await call(client, 'ui_apps', {})).text).toMatch(/^UI_NOT_AVAILABLE/);
    expect(attempts).toBe(2);
    expect(logs.at(-1)).toMatch(/^ui_apps error UI_NOT_AVAILABLE \d+ ms$/);
  });
});

describe('MCP server safety', () => {
  it('--read-only leaves ui_action out, and a call to it is refused', async () => {
    const platform = new FakePlatform();
    const client = await connect({ readOnly: true }, platform);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ui_apps', 'ui_tree', 'ui_find', 'ui_read', 'ui_screenshot', 'ui_wait_for', 'docs_search']);
    expect(client.getInstructions()).toMatch(/read-only/);
    const result = await call(client, 'ui_action', { pid: FIXTURE_PID, action: 'click', id: 'x' });
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^VALIDATION: 'ui_action' is not offered: this server was started with --read-only/),
    });
    expect(platform.inputLog).toEqual([]);
  });

  it('--apps lists and touches only allowed apps, refusing others with PERMISSION_DENIED', async () => {
    const client = await connect({ apps: ['notes'] });
    const apps = await call(client, 'ui_apps', {});
    expect((apps.structuredContent as { apps: { name: string }[] }).apps.map((app) => app.name)).toEqual(['Notes']);
    expect(apps.structuredContent?.['allowList']).toEqual(['notes']);
    expect((await call(client, 'ui_tree', { app: 'Notes' })).isError).toBeUndefined();
    // By name, only allowed apps match, and the error does not name the hidden ones.
    const hidden = await call(client, 'ui_tree', { app: 'Deskpilot Fixture' });
    expect(hidden.text).toBe("VALIDATION: no running app matches 'Deskpilot Fixture'; running: Notes. Fix the arguments named above and call again.");
    for (const [name, args] of [
      ['ui_tree', { pid: FIXTURE_PID }],
      ['ui_action', { pid: FIXTURE_PID, action: 'key', key: 'return' }],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toMatch(/^PERMISSION_DENIED: pid 4242 is not a running app in this server's allow-list \(--apps notes\)/);
    }
  });

  it('--apps refuses a disallowed pid the same way whether it runs or not, so a client cannot probe pids', async () => {
    const platform = new FakePlatform();
    const client = await connect({ apps: ['notes'] }, platform);
    const refusal = async (pid: number): Promise<string> => {
      const result = await call(client, 'ui_tree', { pid });
      expect(result.isError).toBe(true);
      return result.text.replaceAll(String(pid), '<pid>');
    };
    const alive = await refusal(FIXTURE_PID);
    expect(await refusal(999_999)).toBe(alive);
    expect(alive).toMatch(/^PERMISSION_DENIED: /);
    expect(alive).not.toContain('Deskpilot Fixture');
    platform.kill(FIXTURE_PID);
    expect(await refusal(FIXTURE_PID)).toBe(alive);
    // An allowed app that exits is gone from the list too, and is refused the same way.
    platform.kill(NOTES_PID);
    expect(await refusal(NOTES_PID)).toBe(alive);
  });
});
