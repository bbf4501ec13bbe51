/**
 * Malformed and oversized arguments against the MCP server on the fake desktop: each is a
 * coded tool error decided before any platform call, and the call after it is answered. A
 * megabyte id or name used to hold the single-threaded server for up to a minute; what the
 * largest allowed ones cost to match is a figure of `npm run bench:matching`, not a limit here.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionEngine } from '../../src/core/actions/engine';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { closestCandidates } from '../../src/core/actions/locate';
import { findNodes } from '../../src/core/ui/query';
import { createMcpServer } from '../../src/mcp/server';
import { countPlatformCalls, type CallCount } from '../platform-calls';

const MB = 'x'.repeat(1_000_000);

let client: Client;
let calls: CallCount;

beforeAll(async () => {
  const platform = new FakePlatform();
  calls = countPlatformCalls(platform);
  const { server } = createMcpServer({
    options: { maxChars: 20_000, readOnly: false, apps: undefined },
    createCore: () => Promise.resolve({ platform, engine: new ActionEngine({ platform }) }),
    log: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'bounds', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  // The first call builds the core; the counts below are about the arguments only.
  await client.callTool({ name: 'ui_apps', arguments: {} });
});

afterAll(() => client.close());

/** The result, its first text, and how many platform calls answering it took. */
async function timed(name: string, args: unknown): Promise<{ result: CallToolResult; text: string; calls: number }> {
  const before = calls.total;
  const result = await client.request({ method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } }, CallToolResultSchema);
  const first = result.content[0];
  return { result, text: first?.type === 'text' ? first.text : '', calls: calls.total - before };
}

const BAD: [string, string, unknown, RegExp][] = [
  ['a 1 MB id', 'ui_find', { pid: FIXTURE_PID, id: MB }, /^VALIDATION: .*'id'/],
  ['a 1 MB rootId', 'ui_tree', { pid: FIXTURE_PID, rootId: MB }, /^VALIDATION: .*'rootId'/],
  ['a 1 MB name', 'ui_find', { pid: FIXTURE_PID, name: MB }, /^VALIDATION: .*'name'/],
  ['a 1 MB text to type', 'ui_action', { pid: FIXTURE_PID, action: 'type', id: 'abcde', text: MB }, /^VALIDATION: .*'text'/],
  ['a 1 MB value', 'ui_action', { pid: FIXTURE_PID, action: 'set_value', id: 'abcde', value: MB }, /^VALIDATION: .*'value'/],
  ['a 1 MB action id', 'ui_action', { pid: FIXTURE_PID, action: 'click', id: MB }, /^VALIDATION: .*'id'/],
  ['a 1 MB app name', 'ui_tree', { app: MB }, /^VALIDATION: .*'app'/],
  ['a 1 MB label', 'ui_fill_form', { pid: FIXTURE_PID, fields: [{ label: MB, value: 'x' }] }, /^VALIDATION: .*label/],
  ['a 1 MB key', 'ui_action', { pid: FIXTURE_PID, action: 'key', key: MB }, /^VALIDATION: .*'key'/],
  [
    'a thousand modifiers',
    'ui_action',
    { pid: FIXTURE_PID, action: 'key', key: 'a', modifiers: Array.from({ length: 1000 }, () => 'ctrl') },
    /^VALIDATION: .*modifiers/,
  ],
  ['an unknown tool', 'ui_frobnicate', {}, /^VALIDATION: unknown tool 'ui_frobnicate'\. Tools: ui_apps, /],
  ['a tool name in the wrong case', 'UI_TREE', {}, /^VALIDATION: unknown tool 'UI_TREE'\. Tool names are lowercase: call 'ui_tree'/],
  ['a 1 MB tool name', MB, {}, /^VALIDATION: unknown tool 'x{64}…'/],
  ['a string for an object', 'ui_tree', { pid: 'twelve' }, /^VALIDATION: .*'pid'/],
  ['an unknown field', 'ui_apps', { everything: true }, /^VALIDATION: .*'everything'/],
];

describe('bounded inputs over MCP', () => {
  it.each(BAD)('refuses %s with a code before any platform call, and answers the next call', async (_what, name, args, expected) => {
    const refused = await timed(name, args);
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toMatch(expected);
    expect(refused.text.length).toBeLessThan(2_000);
    expect(refused.calls).toBe(0);
    const next = await timed('ui_apps', {});
    expect(next.result.isError).toBeUndefined();
    expect(next.calls).toBeGreaterThan(0);
  });

  it('treats null arguments as {}', async () => {
    const apps = await timed('ui_apps', null);
    expect(apps.result.isError).toBeUndefined();
    expect(apps.text).toContain('Deskpilot Fixture');
    const tree = await timed('ui_tree', null);
    expect(tree.text).toMatch(/^VALIDATION: no target app/);
  });

  it('matches the largest allowed name and id with the platform calls of a short one', async () => {
    const short = await timed('ui_find', { pid: FIXTURE_PID, name: 'Volume' });
    const longest = 'y'.repeat(1_000);
    for (const args of [
      { name: longest },
      { text: longest },
      { description: longest },
      { id: 'z'.repeat(64) },
      { role: 'button', name: `${'Increment '.repeat(99)}` },
    ]) {
      const found = await timed('ui_find', { pid: FIXTURE_PID, ...args });
      expect(found.calls, JSON.stringify(args).slice(0, 40)).toBe(short.calls);
    }
  });
});

describe('matching cost', () => {
  // Its time is `npm run bench:matching`'s figure, beside a plain scan of the same tree.
  it('finds nothing for a megabyte name or id against a 5,000-node tree', async () => {
    const platform = new FakePlatform();
    const { root } = await new ActionEngine({ platform }).observe(FIXTURE_PID);
    const rows = Array.from({ length: 5_000 }, (_unused, index) => ({
      ...root,
      id: `r${String(index).padStart(4, '0')}`,
      name: `Row ${index} of a long list`,
      children: [],
    }));
    const big = { ...root, children: rows };
    expect(findNodes(big, { name: MB })).toEqual([]);
    expect(closestCandidates(big, MB, undefined)).toEqual([]);
  });
});
