/**
 * The mirror over a table read by its visible range (a sheet): a cell read again alone keeps
 * the address and headers its table gave it, as a full read gives them.
 */
import { describe, expect, it } from 'vitest';
import { AppMirror } from './mirror';
import { LIMITS, event, fixture, type FakeApp, type Node } from './testing/mirror-app';

function sheetApp(): FakeApp {
  const app = fixture();
  app.nodes.set('/sheet', { name: 'Sheet', role: 'table', kids: ['/cell/b2'], huge: true });
  app.nodes.set('/cell/b2', { name: '', role: 'cell', kids: [], value: '37' });
  app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/sheet'] });
  return app;
}

/** The tree a full read gives: the range read named the cell by its address and described it by its headers. */
function read(app: FakeApp): Node {
  const tree = app.tree();
  const cell = tree.children?.[0]?.children?.[2]?.children?.[0] as Node;
  cell.name = 'B2';
  cell.description = 'column: Revenue; row: Ada';
  return tree;
}

const cellOf = (tree: Node): Node | undefined => tree.children?.[0]?.children?.[2]?.children?.[0];

describe('AppMirror over a range-read table', () => {
  it('keeps a cell’s address and headers when an event has it read again alone', async () => {
    const app = sheetApp();
    const mirror = new AppMirror(LIMITS);
    mirror.load(read(app));
    app.nodes.set('/cell/b2', { name: '', role: 'cell', kids: [], value: '40', focused: true });
    mirror.apply(event('/cell/b2', 'StateChanged', 'focused', 1));
    await mirror.flush(app);
    const cell = cellOf(mirror.snapshot());
    expect(cell).toMatchObject({ name: 'B2', description: 'column: Revenue; row: Ada', value: '40', states: { focused: true } });
  });

  it('reads again the states of range cells alone where the app announces every other walked node’s (LibreOffice)', async () => {
    const app = sheetApp();
    app.cached = true;
    // Menu items and cells are left out of the cache and walked.
    app.uncached = new Set(['/a', '/cell/b2']);
    app.walkedStatesAnnounced = 'outside-ranges';
    const mirror = new AppMirror(LIMITS);
    mirror.load(read(app), await app.rows());
    // The cursor moved onto the cell: the object the tree holds says so when asked, with no event of its own.
    app.nodes.set('/cell/b2', { name: '', role: 'cell', kids: [], value: '37', focused: true });
    await mirror.flush(app);
    expect(app.calls.filter((call) => call.startsWith('states'))).toEqual(['states /cell/b2']);
    expect(cellOf(mirror.snapshot())).toMatchObject({ name: 'B2', description: 'column: Revenue; row: Ada', states: { focused: true } });
  });

  it('takes a label a cell’s own read gives over the one its table gave', async () => {
    const app = sheetApp();
    const mirror = new AppMirror(LIMITS);
    mirror.load(read(app));
    app.nodes.set('/cell/b2', { name: 'Total', role: 'cell', kids: [] });
    mirror.apply(event('/cell/b2', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    expect(cellOf(mirror.snapshot())?.name).toBe('Total');
  });

  it('reads the table’s visible range again when its children change, never listing them, and drops the cells it no longer shows', async () => {
    const app = sheetApp();
    const mirror = new AppMirror(LIMITS);
    mirror.load(read(app));
    // Scrolled: the range now shows another cell, as a new object.
    app.nodes.set('/sheet', { name: 'Sheet', role: 'table', kids: ['/cell/b3'], huge: true });
    app.nodes.set('/cell/b3', { name: 'B3', role: 'cell', kids: [], value: '74' });
    mirror.apply(event('/sheet', 'ChildrenChanged', 'add', 0));
    await mirror.flush(app);
    expect(cellOf(mirror.snapshot())).toMatchObject({ name: 'B3', value: '74' });
    expect(app.calls).toContain('subtree /sheet');
    expect(app.calls).not.toContain('children /sheet');
    // The old cell's last words are about a node that left the tree: no call, no full read.
    app.calls = [];
    mirror.apply(event('/cell/b2', 'StateChanged', 'defunct', 1));
    await mirror.flush(app);
    expect(app.calls.filter((call) => !call.startsWith('value'))).toEqual([]);
  });

  it('reads the range again when a call on one of its cells fails (a cell object the sheet retired)', async () => {
    const app = sheetApp();
    const mirror = new AppMirror(LIMITS);
    mirror.load(read(app));
    app.nodes.set('/sheet', { name: 'Sheet', role: 'table', kids: ['/cell/b2-new'], huge: true });
    app.nodes.set('/cell/b2-new', { name: '', role: 'cell', kids: [], value: '38' });
    const value = app.value.bind(app);
    app.value = (node: Node) => (node.ref.path === '/cell/b2' ? Promise.reject(new Error('org.a11y.atspi.Error.UnknownObject')) : value(node));
    await mirror.flush(app);
    expect(cellOf(mirror.snapshot())).toMatchObject({ value: '38' });
    expect(app.calls).toContain('subtree /sheet');
  });
});
