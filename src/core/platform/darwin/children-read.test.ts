import { describe, expect, it } from 'vitest';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import type { RawNode } from '../../ui/ids';
import { walk } from '../../ui/tree-index';
import { readOutline } from '../outline-read';
import type { ChildRequest } from '../types';
import type { MacRef } from './tree-walk';
import { harness, type Harness } from './testing/setup';
import { sampleApp, type FakeApp, type FakeNode } from './testing/fake-world';

const PID = 501;

async function read(test: Harness, requests: ChildRequest[]): Promise<RawNode[][]> {
  const answer = await test.platform.accessibility.readChildren?.(PID, requests);
  if (answer === undefined) throw new Error('readChildren answered undefined');
  return answer;
}

/** A node of the whole read as readChildren gives it: no children, its count instead. */
function alone(node: RawNode): RawNode {
  const { children, ...rest } = node;
  return { ...rest, childCount: node.childCount ?? children?.length ?? 0 };
}

const pathOf = (node: RawNode | undefined): number[] | undefined => (node?.ref as MacRef | undefined)?.path;

describe('readChildren on macOS (the compact tree read by budget, issue 27)', () => {
  it('reads the root, then its windows, then a slice of a window, each node as the whole read builds it, one batched read per node', async () => {
    const test = await harness([sampleApp(PID)]);
    const whole = await test.platform.accessibility.getTree(PID, { maxNodes: 40 });
    const window = whole.children?.[0] as RawNode;
    test.fake.calls.length = 0;

    const [[root]] = (await read(test, [{ ref: undefined, from: 0, count: 1 }])) as [[RawNode]];
    expect(root).toMatchObject({ role: 'application', childCount: 1 });
    const [windows] = (await read(test, [{ ref: root.ref, from: 0, count: 10 }])) as [RawNode[]];
    expect(windows).toEqual([alone(window)]);
    const [slice] = (await read(test, [{ ref: (windows[0] as RawNode).ref, from: 2, count: 3 }])) as [RawNode[]];
    expect(slice).toEqual((window.children ?? []).slice(2, 5).map(alone));
    expect(slice.map(pathOf)).toEqual([
      [0, 2],
      [0, 3],
      [0, 4],
    ]);
    // The password field is secret and its value never crossed: the whole read's rule.
    expect(slice[2]).toMatchObject({ states: { secret: true } });
    expect(slice[2]?.value).toBeUndefined();
    expect(test.fake.valuesServed).not.toContain('hunter2');

    // One batch per node read, and one ranged copy per request with a parent: of just the slice asked.
    expect(test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')).toHaveLength(1 + 1 + 3);
    expect(test.fake.callsOf('AXUIElementCopyAttributeValues').map((call) => call.args.slice(1))).toEqual([
      ['AXWindows', 0, 10],
      ['AXChildren', 2, 3],
    ]);
    // The window was kept from the level before: its path was not resolved again.
    expect(test.fake.callsOf('AXUIElementCopyAttributeValue').filter((call) => call.args[1] === 'AXWindows')).toHaveLength(1);
    await test.finish();
  });

  it('counts a big list instead of batching its children, then reads any slice of it', async () => {
    const test = await harness([sampleApp(PID)]);
    const [[root]] = (await read(test, [{ ref: undefined, from: 0, count: 1 }])) as [[RawNode]];
    const [[window]] = (await read(test, [{ ref: root.ref, from: 0, count: 1 }])) as [[RawNode]];
    const [[scroll]] = (await read(test, [{ ref: window.ref, from: 7, count: 1 }])) as [[RawNode]];
    test.fake.calls.length = 0;
    const [[list]] = (await read(test, [{ ref: scroll.ref, from: 0, count: 1 }])) as [[RawNode]];
    expect(list).toMatchObject({ role: 'list', childCount: 1000 });
    // The list's batch left AXChildren out (it would time out whole): it was counted.
    const batch = test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')[0];
    expect(batch?.args[1]).not.toContain('AXChildren');
    expect(test.fake.callsOf('AXUIElementGetAttributeValueCount')).toHaveLength(1);
    expect(test.fake.timeoutsSpent).toBe(0);

    test.fake.calls.length = 0;
    const [rows] = (await read(test, [{ ref: list.ref, from: 500, count: 2 }])) as [RawNode[]];
    expect(rows.map((row) => [row.role, row.childCount, pathOf(row)])).toEqual([
      ['row', 1, [0, 7, 0, 500]],
      ['row', 1, [0, 7, 0, 501]],
    ]);
    expect(test.fake.callsOf('AXUIElementCopyAttributeValues').map((call) => call.args.slice(1))).toEqual([['AXChildren', 500, 2]]);
    expect(test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')).toHaveLength(2);
    await test.finish();
  });

  it('finds a parent it does not hold by its path, reads a gone one as no children, and releases what it kept when a new read starts', async () => {
    const test = await harness([sampleApp(PID)]);
    const whole = await test.platform.accessibility.getTree(PID, { maxNodes: 20 });
    const window = whole.children?.[0] as RawNode;
    const [children] = (await read(test, [{ ref: window.ref, from: 0, count: 2 }])) as [RawNode[]];
    expect(children.map((child) => child.name)).toEqual(['Save', 'Custom']);
    const gone: MacRef = { ...(window.ref as MacRef), path: [0, 99], axRole: 'AXGroup' };
    expect(await read(test, [{ ref: gone, from: 0, count: 5 }])).toEqual([[]]);

    // Kept: the window. A new read (a root request) releases it and keeps only the new app element.
    // (Names and the system-wide element live until close() too: only the app's elements are counted.)
    const held = (): string[] => test.fake.leaks().filter((leak) => leak === `AXUIElement(pid ${PID})`);
    expect(held()).toEqual([`AXUIElement(pid ${PID})`]);
    await read(test, [{ ref: undefined, from: 0, count: 1 }]);
    await read(test, [{ ref: undefined, from: 0, count: 1 }]);
    expect(held()).toEqual([`AXUIElement(pid ${PID})`]);
    // close() releases the rest; finish() checks nothing is left.
    await test.finish();
  });

  it('gives the outline read what it needs: a budgeted read whose calls stay few on a 1000-row list', async () => {
    const test = await harness([sampleApp(PID)]);
    test.fake.calls.length = 0;
    const outline = await readOutline(test.platform.accessibility, PID, { maxReads: 30 });
    expect(outline).toBeDefined();
    const read = outline as NonNullable<typeof outline>;
    expect(read.reads).toBeLessThanOrEqual(31);
    expect(read.calls).toBeLessThan(10);
    // One batched read per node: the cost follows the budget, not the list's 1000 rows.
    expect(test.fake.callsOf('AXUIElementCopyMultipleAttributeValues').length).toBeLessThanOrEqual(read.reads);
    const names = JSON.stringify(read.root);
    expect(names).toContain('Save');
    await test.finish();
  });

  it('gives every node it reads the id the whole read gives it, so a later action or `tree --root` finds it', async () => {
    const test = await harness([sampleApp(PID)]);
    const engine = new ActionEngine({ platform: test.platform, clock: new FakeClock() });
    const whole = new Set([...walk((await engine.observe(PID)).root)].map((node) => `${node.id} ${node.role} ${node.name}`));
    const outline = await engine.observeOutline(PID, { maxReads: 30 });
    const read = [...walk((outline as NonNullable<typeof outline>).root)].map((node) => `${node.id} ${node.role} ${node.name}`);
    expect(read.length).toBeGreaterThan(10);
    expect(read.filter((node) => !whole.has(node))).toEqual([]);
    await test.finish();
  });

  it('costs AX calls in proportion to the budget, not the page: the same at 2,000 and 20,000 nodes', async () => {
    const page = (groups: number, per: number): FakeApp => ({
      pid: PID,
      name: 'Page',
      windows: [
        {
          role: 'AXWindow',
          title: 'Page',
          position: { x: 0, y: 0 },
          size: { width: 800, height: 600 },
          children: Array.from({ length: groups }, (_unused, group): FakeNode => ({
            role: 'AXGroup',
            title: `Section ${group}`,
            children: Array.from({ length: per }, (_none, index): FakeNode => ({
              role: 'AXButton',
              title: `Act ${group * per + index}`,
              actions: ['AXPress'],
            })),
          })),
        },
      ],
    });
    const ipc: number[] = [];
    for (const [groups, per] of [
      [20, 100],
      [40, 500],
    ] as const) {
      const test = await harness([page(groups, per)]);
      test.fake.calls.length = 0;
      const read = await readOutline(test.platform.accessibility, PID, { maxReads: 200 });
      expect(read?.reads).toBe(200);
      // Every AX IPC runs on koffi's pool: one batch per node read, one ranged copy per parent, and the app's windows.
      ipc.push(test.fake.calls.filter((call) => call.async).length);
      await test.finish();
    }
    expect(ipc[0]).toBeLessThanOrEqual(210);
    expect(ipc[1]).toBeLessThanOrEqual(ipc[0] as number);
  });
});
