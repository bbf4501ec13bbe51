/**
 * The mirror's placing of nodes an event named but the tree does not hold: thrown away between
 * two reads (LibreOffice's sidebar rebuilds a hidden panel on every edit in a sheet), gone, or
 * really missed; counted in calls, and falling back to a full read only where placing costs more.
 */
import { describe, expect, it } from 'vitest';
import { AppMirror } from './mirror';
import { LIMITS, event, fixture, loaded, names } from './testing/mirror-app';

describe('AppMirror placing nodes it does not hold', () => {
  it('takes a node made and thrown away between two reads as never there: no full read', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    // A panel item added under the window and removed again; it still names the window as its parent.
    app.parents.set('/panel', '/w');
    mirror.apply(event('/w', 'ChildrenChanged', 'add', 2));
    mirror.apply(event('/panel', 'ChildrenChanged', 'add', 0));
    mirror.apply(event('/w', 'ChildrenChanged', 'remove', 2));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B']);
    // The window's list was read once, for its own event; the panel item cost one Parent call.
    expect(app.calls.sort()).toEqual(['children /w', 'parent /panel']);
    // Its later events are known to be about a node outside the tree: no call at all.
    app.calls = [];
    mirror.apply(event('/panel', 'StateChanged', 'showing', 0));
    await mirror.flush(app);
    expect(app.calls).toEqual([]);
  });

  it('asks each parent once for many nodes thrown away together', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    app.parents.set('/box', '/w');
    for (let item = 0; item < 40; item += 1) {
      app.parents.set(`/box/${item}`, '/box');
      mirror.apply(event(`/box/${item}`, 'PropertyChange', 'accessible-role'));
    }
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B']);
    expect(app.calls.filter((call) => call === 'parent /box')).toHaveLength(1);
    expect(app.calls.filter((call) => call === 'children /w')).toHaveLength(1);
    expect(app.calls).toHaveLength(42);
  });

  it('checks the list of a held parent no event re-read, and leaves out a node it no longer lists', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    app.parents.set('/tip', '/w');
    mirror.apply(event('/tip', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B']);
    expect(app.calls.sort()).toEqual(['children /w', 'parent /tip']);
  });

  it('reads in a node the events missed, found under a held parent that lists it', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    // A group with a check box appeared with no children-changed on the window; only the check box spoke.
    app.nodes.set('/g', { name: 'Group', role: 'group', kids: ['/g/c'] });
    app.nodes.set('/g/c', { name: 'Check', role: 'checkbox', kids: [] });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/g'] });
    mirror.apply(event('/g/c', 'StateChanged', 'checked', 1));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B', 'Group', 'Check']);
    expect(app.calls).toEqual(expect.arrayContaining(['parent /g/c', 'parent /g', 'children /w', 'subtree /g']));
    expect(mirror.silentChanges).toBeGreaterThan(0);
  });

  it('takes a node that cannot say where it is as gone', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    mirror.apply(event('/gone', 'PropertyChange', 'accessible-role'));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B']);
    expect(app.calls).toEqual(['parent /gone']);
  });

  it('leaves a cell object a range-read table made on demand to the range read: no listing of the table', async () => {
    const app = fixture();
    app.nodes.set('/sheet', { name: 'Sheet', role: 'table', kids: ['/cell/a1'], huge: true });
    app.nodes.set('/cell/a1', { name: 'A1', role: 'cell', kids: [] });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/sheet'] });
    const mirror = await loaded(app);
    // The cursor's cell, a new object for a cell the tree holds under another path.
    app.parents.set('/cell/cursor', '/sheet');
    mirror.apply(event('/cell/cursor', 'StateChanged', 'focused', 1));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B', 'Sheet', 'A1']);
    expect(app.calls).not.toContain('children /sheet');
  });

  it('falls back when a node hangs deeper than it climbs, or too many are unknown', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    for (let level = 0; level < 40; level += 1) app.parents.set(`/deep/${level}`, `/deep/${level + 1}`);
    app.parents.set('/deep/40', '/w');
    mirror.apply(event('/deep/0', 'StateChanged', 'checked', 1));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'unknown-node' });
    const many = new AppMirror({ ...LIMITS, maxPending: 5000 });
    many.load(app.tree());
    for (let each = 0; each < 1001; each += 1) many.apply(event(`/tip/${each}`, 'StateChanged', 'checked', 1));
    app.calls = [];
    await expect(many.flush(app)).rejects.toMatchObject({ reason: 'unknown-node' });
    expect(app.calls.filter((call) => call.startsWith('parent'))).toEqual([]);
  });

  it('falls back when the parent lists the node, yet reading that list again does not bring it in', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    // The window lists /x, but /x cannot be read into the tree (its subtree comes back as another node).
    app.nodes.set('/x', { name: 'X', role: 'button', kids: [] });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/x'] });
    app.subtree = async (path: string) => {
      app.calls.push(`subtree ${path}`);
      await Promise.resolve();
      return app.tree('/a');
    };
    mirror.apply(event('/x', 'StateChanged', 'checked', 1));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'unknown-node' });
  });
});
