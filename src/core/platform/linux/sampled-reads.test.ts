/**
 * Sampled node reads (LibreOffice): what siblings share is asked of one of them, and a range
 * column's cells are read by their states where the column's first cell vouches for the rest.
 */
import { describe, expect, it } from 'vitest';
import { IFACE, ROLE } from '../../../../native/linux/atspi';
import { bridgeOf } from './bridges';
import type { AtspiClient } from './client';
import { fakeAtspiClient } from './testing/fake-atspi-client';
import { limiter } from './pool';
import { sampledReads } from './sampled-reads';
import { MAX_TREE_TEXT } from './tree-values';

interface FakeNode {
  role: number;
  name: string;
  description?: string;
  childCount?: number;
  interfaces?: string[];
  text?: string;
}

const CELL_INTERFACES = [IFACE.accessible, IFACE.component, IFACE.text, IFACE.value];

/** A client over fixed nodes, counting calls by member and path. */
function fakeClient(nodes: Record<string, FakeNode>): { client: AtspiClient; calls: string[] } {
  const calls: string[] = [];
  const node = (path: string): FakeNode => {
    const found = nodes[path];
    if (found === undefined) throw new Error(`no node ${path}`);
    return found;
  };
  const client = fakeAtspiClient({
    call: async ([, path]: [string, string], _iface: string, member: string, _signature?: string, body?: unknown[]): Promise<unknown[]> => {
      calls.push(`${member}${member === 'GetText' ? `(${String(body)})` : ''} ${path}`);
      const { role, name, description = '', childCount = 0, interfaces = [IFACE.accessible] } = node(path);
      if (member === 'GetRole') return [role];
      if (member === 'GetState') return [[1, 0]];
      if (member === 'GetInterfaces') return [interfaces];
      if (member === 'GetAll') return [{ Name: { value: name }, Description: { value: description }, ChildCount: { value: childCount } }];
      if (member === 'GetText') return [node(path).text ?? ''];
      throw new Error(`unexpected ${member}`);
    },
    property: async ([, path]: [string, string], _iface: string, name: string): Promise<unknown> => {
      calls.push(`Get ${name} ${path}`);
      if (name === 'CharacterCount') return (node(path).text ?? '').length;
      throw new Error(`unexpected property ${name}`);
    },
  } as unknown as AtspiClient);
  return { client, calls };
}

const LIBREOFFICE = bridgeOf('GTK', '3.24.38', 'soffice');
const cellAt = (column: number, row: number, path: string) => ({
  ref: [':1.1', path] as [string, string],
  row,
  column,
  address: `${String.fromCharCode(65 + column)}${row + 1}`,
});

describe('sampledReads', () => {
  it('asks interfaces once per parent and role, and again under another parent', async () => {
    const { client, calls } = fakeClient({
      '/a': { role: ROLE.MENU_ITEM, name: 'Open', interfaces: [IFACE.accessible, IFACE.action] },
      '/b': { role: ROLE.MENU_ITEM, name: 'Save', interfaces: [IFACE.accessible, IFACE.action] },
      '/c': { role: ROLE.SEPARATOR, name: '', interfaces: [IFACE.accessible] },
      '/d': { role: ROLE.MENU_ITEM, name: 'Cut', interfaces: [IFACE.accessible, IFACE.text] },
    });
    const reads = sampledReads(client, LIBREOFFICE, limiter(4));
    const read = await Promise.all([
      reads.node([':1.1', '/a'], 0, '/file'),
      reads.node([':1.1', '/b'], 1, '/file'),
      reads.node([':1.1', '/c'], 2, '/file'),
      reads.node([':1.1', '/d'], 0, '/edit'),
    ]);
    expect(calls.filter((call) => call.startsWith('GetInterfaces')).sort()).toEqual(['GetInterfaces /a', 'GetInterfaces /c', 'GetInterfaces /d']);
    expect(read.map((item) => [item.name, item.interfaces])).toEqual([
      ['Open', [IFACE.accessible, IFACE.action]],
      ['Save', [IFACE.accessible, IFACE.action]],
      ['', [IFACE.accessible]],
      ['Cut', [IFACE.accessible, IFACE.text]],
    ]);
  });

  it('reads a column’s other cells by their states where its first cell is named by its address and has no description or children', async () => {
    const { client, calls } = fakeClient({
      '/a1': { role: ROLE.TABLE_CELL, name: 'A1', interfaces: CELL_INTERFACES },
      '/a2': { role: ROLE.TABLE_CELL, name: 'A2', interfaces: CELL_INTERFACES },
      '/a3': { role: ROLE.TABLE_CELL, name: 'A3', interfaces: CELL_INTERFACES, text: 'Total' },
    });
    const reads = sampledReads(client, LIBREOFFICE, limiter(4));
    const read = await Promise.all(['/a1', '/a2', '/a3'].map((path, row) => reads.cell([':1.1', path], row, '/sheet', cellAt(0, row, path))));
    // Their whole text in the same round trip (GetText to -1, no length first), so the value pass asks nothing.
    expect(calls.filter((call) => !call.endsWith('/a1'))).toEqual(['GetState /a2', 'GetText(0,-1) /a2', 'GetState /a3', 'GetText(0,-1) /a3']);
    expect(read[1]).toMatchObject({ name: 'A2', text: '' });
    expect(read[2]).toMatchObject({
      name: 'A3',
      role: ROLE.TABLE_CELL,
      interfaces: CELL_INTERFACES,
      description: '',
      childCount: 0,
      states: [1, 0],
      text: 'Total',
    });
  });

  it('cuts a cell’s whole text to the limit, by characters', async () => {
    const long = `${'x'.repeat(MAX_TREE_TEXT)}\u{1F600}tail`;
    const { client } = fakeClient({
      '/c1': { role: ROLE.TABLE_CELL, name: 'C1', interfaces: CELL_INTERFACES },
      '/c2': { role: ROLE.TABLE_CELL, name: 'C2', interfaces: CELL_INTERFACES, text: long },
    });
    const reads = sampledReads(client, LIBREOFFICE, limiter(4));
    const read = await Promise.all(['/c1', '/c2'].map((path, row) => reads.cell([':1.1', path], row, '/sheet', cellAt(2, row, path))));
    expect(read[1]?.text).toBe(`${'x'.repeat(MAX_TREE_TEXT)}\u{1F600}`);
  });

  it('reads every cell of a column in full where its first cell says something the address would not', async () => {
    const { client, calls } = fakeClient({
      '/b1': { role: ROLE.TABLE_CELL, name: 'B1', description: 'Total of the quarter', interfaces: CELL_INTERFACES },
      '/b2': { role: ROLE.TABLE_CELL, name: 'B2', interfaces: CELL_INTERFACES },
    });
    const reads = sampledReads(client, LIBREOFFICE, limiter(4));
    await Promise.all(['/b1', '/b2'].map((path, row) => reads.cell([':1.1', path], row, '/sheet', cellAt(1, row, path))));
    expect(calls.filter((call) => call.endsWith('/b2')).sort()).toEqual(['GetAll /b2', 'GetInterfaces /b2', 'GetRole /b2', 'GetState /b2']);
  });

  it('reads every node in full on a bridge without the flags (GTK 3)', async () => {
    const { client, calls } = fakeClient({
      '/a': { role: ROLE.MENU_ITEM, name: 'Open' },
      '/b': { role: ROLE.MENU_ITEM, name: 'Save' },
    });
    const reads = sampledReads(client, bridgeOf('GTK', '3.24.38', 'mousepad'), limiter(4));
    await Promise.all([reads.node([':1.1', '/a'], 0, '/file'), reads.node([':1.1', '/b'], 1, '/file')]);
    expect(calls.filter((call) => call.startsWith('GetInterfaces'))).toHaveLength(2);
  });
});
