import { describe, expect, it } from 'vitest';
import { IFACE, ROLE, ROOT_PATH, STATE } from '../../../../native/linux/atspi';
import { buildTree, type RawNode } from '../../ui/ids';
import { readOutline } from '../outline-read';
import type { AccessibilityBackend } from '../types';
import type { AppDirectory } from './apps';
import { bridgeOf } from './bridges';
import type { AtspiClient } from './client';
import { fakeAtspiClient } from './testing/fake-atspi-client';
import { createReadChildren } from './budgeted-read';
import { fetchTree } from './tree-fetch';

const BUS = ':1.7';

type Nodes = Record<string, { name: string; role: number; children: string[] }>;

/** A walked app (no cache) that counts its calls by member. */
function app(nodes: Nodes) {
  const calls: string[] = [];
  const node = (path: string) => nodes[path] ?? { name: '', role: ROLE.FILLER, children: [] };
  const client = {
    call: (target: [string, string], iface: string, member: string, _signature?: string, body?: unknown[]): Promise<unknown[]> => {
      calls.push(member);
      const path = target[1];
      if (member === 'GetItems') return Promise.reject(new Error('no cache'));
      if (member === 'GetRole') return Promise.resolve([node(path).role]);
      // Showing and enabled, as what a person sees is.
      if (member === 'GetState') return Promise.resolve([[(1 << STATE.SHOWING) | (1 << STATE.ENABLED), 0]]);
      if (member === 'GetInterfaces') return Promise.resolve([[IFACE.accessible]]);
      if (member === 'GetChildren') return Promise.resolve([node(path).children.map((child) => [BUS, child])]);
      if (member === 'GetAll' && body?.[0] === IFACE.accessible) {
        const { name, children } = node(path);
        return Promise.resolve([{ Name: { value: name }, Description: { value: '' }, ChildCount: { value: children.length } }]);
      }
      return Promise.reject(new Error(`no ${iface}.${member}`));
    },
    property: (target: [string, string], _iface: string, name: string): Promise<unknown> => {
      calls.push(`Get ${name}`);
      const { name: text, children } = node(target[1]);
      return Promise.resolve(name === 'Name' ? text : name === 'ChildCount' ? children.length : '');
    },
  };
  return { client: fakeAtspiClient(client as unknown as AtspiClient), calls };
}

/** A page: a frame, a document, and `rows` rows of one button each. */
function page(rows: number): Nodes {
  const nodes: Nodes = {
    [ROOT_PATH]: { name: 'Chromium', role: ROLE.APPLICATION, children: ['/w'] },
    '/w': { name: 'Page', role: ROLE.FRAME, children: ['/doc'] },
    '/doc': { name: 'Page', role: ROLE.DOCUMENT_WEB, children: ['/h', '/t'] },
    '/h': { name: 'Title', role: ROLE.HEADING, children: [] },
    '/t': { name: '', role: ROLE.TABLE, children: [] },
  };
  for (let row = 0; row < rows; row += 1) {
    (nodes['/t'] as { children: string[] }).children.push(`/r${row}`);
    nodes[`/r${row}`] = { name: '', role: ROLE.TABLE_ROW, children: [`/b${row}`] };
    nodes[`/b${row}`] = { name: `Act ${row}`, role: ROLE.PUSH_BUTTON, children: [] };
  }
  return nodes;
}

function backend(client: AtspiClient, toolkit = 'Chromium'): AccessibilityBackend {
  const apps = { get: () => Promise.resolve({ pid: 9, bus: BUS, name: 'Chromium', gtk4: false, bridge: bridgeOf(toolkit, '1.0'), windows: [] }) };
  return { readChildren: createReadChildren(client, apps as unknown as AppDirectory) } as unknown as AccessibilityBackend;
}

function ids(raw: RawNode): Map<string, string> {
  const built = buildTree(raw);
  return new Map([...built.refs].map(([id, ref]) => [(ref as { path: string }).path, id]));
}

describe('Linux readChildren', () => {
  it('reads nodes as the whole read does, with the same ids, and never asks for the whole cache', async () => {
    const nodes = page(300);
    const { client, calls } = app(nodes);
    const read = await readOutline(backend(client), 9, { maxReads: 40 });
    expect(read?.reads).toBeLessThanOrEqual(41);
    expect(calls).not.toContain('GetItems');
    const whole = ids(
      await fetchTree(
        app(nodes).client,
        { pid: 9, bus: BUS, name: 'Chromium', gtk4: false, bridge: bridgeOf('Chromium', '1.0') },
        { bounds: 'none', maxNodes: 5000, maxDepth: 64 },
      ),
    );
    const partial = ids(read?.root as RawNode);
    expect(partial.size).toBeGreaterThan(10);
    for (const [path, id] of partial) expect(whole.get(path), path).toBe(id);
  });

  it('costs the same calls on a page ten times the size', async () => {
    const counts = [];
    for (const rows of [90, 900]) {
      const { client, calls } = app(page(rows));
      await readOutline(backend(client), 9, { maxReads: 60 });
      counts.push(calls.filter((call) => call !== 'GetChildren').length);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it('reads a node in three calls (role, states, name and child count), its interfaces only where they decide a value', async () => {
    const { client, calls } = app(page(300));
    const read = await readOutline(backend(client), 9, { maxReads: 100 });
    const reads = read?.reads ?? 0;
    expect(reads).toBeGreaterThan(50);
    // Labels (GetRelationSet) are asked only of unnamed fields and tables, as the whole read asks them.
    const perNode = calls.filter((call) => ['GetRole', 'GetState', 'GetAll', 'GetInterfaces'].includes(call)).length / reads;
    expect(perNode).toBeLessThanOrEqual(3);
    // Buttons, rows and tables hold no value the text prints.
    expect(calls).not.toContain('GetInterfaces');
  });

  it('leaves GTK apps to the whole read, whose cache is one call', async () => {
    const { client } = app(page(3));
    expect(await readOutline(backend(client, 'GTK'), 9, { maxReads: 60 })).toBeUndefined();
  });
});
