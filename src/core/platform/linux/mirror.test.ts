import { describe, expect, it } from 'vitest';
import { ROOT_PATH } from '../../../../native/linux/atspi';
import { AppMirror, MirrorUntrusted } from './mirror';
import type { ValueRead } from './tree-fetch';
import { LIMITS, event, fixture, loaded, names, node, type Node } from './testing/mirror-app';

describe('AppMirror', () => {
  it('re-reads only the node a property change names', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    app.nodes.set('/a', { name: 'A2', role: 'button', kids: [] });
    mirror.apply(event('/a', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A2', 'B']);
    expect(app.calls).toEqual(['node /a']);
  });

  it('counts the values a patched read reads again: what serving it costs a search', async () => {
    const app = fixture();
    app.nodes.set('/b', { name: 'B', role: 'label', kids: [], value: 'text' });
    const mirror = await loaded(app);
    expect(mirror.checkReads).toBe(Number.POSITIVE_INFINITY);
    await mirror.flush(app);
    expect(mirror.checkReads).toBe(app.calls.filter((call) => call.startsWith('value') || call.startsWith('states')).length);
    expect(mirror.checkReads).toBeGreaterThan(0);
    // Where the cache leaves nodes out (Chromium's all of them), each one's states are read again too.
    const walkedApp = fixture();
    walkedApp.cached = true;
    walkedApp.uncached = new Set(['/a', '/b']);
    const walked = await loaded(walkedApp);
    await walked.flush(walkedApp);
    expect(walkedApp.calls.filter((call) => call.startsWith('states'))).toHaveLength(2);
    expect(walked.checkReads).toBe(2);
    expect(walked.clean).toBe(true);
    walked.apply(event('/a', 'PropertyChange', 'accessible-name'));
    expect(walked.clean).toBe(false);
  });

  it('knows right after a load what its next patched read will check, as that read counts it', async () => {
    for (const walkedOut of [false, true]) {
      const app = fixture();
      app.nodes.set('/b', { name: 'B', role: 'label', kids: [], value: 'text' });
      if (walkedOut) {
        app.cached = true;
        app.uncached = new Set(['/a', '/b']);
      }
      const mirror = await loaded(app);
      mirror.expectChecks(app);
      const expected = mirror.checkReads;
      expect(expected).toBeLessThan(Number.POSITIVE_INFINITY);
      // Counted from what the load holds: nothing is read for it.
      expect(app.calls.some((call) => call.startsWith('value') || call.startsWith('states'))).toBe(false);
      await mirror.flush(app);
      expect(mirror.checkReads).toBe(expected);
      expect(expected).toBe(walkedOut ? 3 : 1);
    }
  });

  it('ignores events that change nothing the tree holds (bounds, caret)', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    mirror.apply(event('/a', 'BoundsChanged'));
    mirror.apply(event('/a', 'PropertyChange', 'accessible-table-caption'));
    await mirror.flush(app);
    expect(app.calls).toEqual([]);
  });

  it('adds a new child with its subtree and drops a removed one, in the app order', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    app.nodes.set('/c', { name: 'C', role: 'group', kids: ['/d'] });
    app.nodes.set('/d', { name: 'D', role: 'button', kids: [] });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/c', '/b'] });
    mirror.apply(event('/w', 'ChildrenChanged', 'add', 0));
    mirror.apply(event('/w', 'ChildrenChanged', 'remove', 0));
    // Events from the new subtree and the dying node do not count as unknown.
    mirror.apply(event('/d', 'StateChanged', 'focused', 1));
    mirror.apply(event('/a', 'StateChanged', 'defunct', 1));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'C', 'D', 'B']);
    expect(app.calls).toContain('subtree /c');
    expect(app.calls).not.toContain('node /d');
  });

  it('moves a node that turns up inside a new subtree, so it is never in the tree twice', async () => {
    const app = fixture();
    app.nodes.set('/a', { name: 'A', role: 'button', kids: ['/x'] });
    app.nodes.set('/x', { name: 'X', role: 'slider', kids: [] });
    const mirror = await loaded(app);
    app.nodes.set('/a', { name: 'A', role: 'button', kids: [] });
    app.nodes.set('/c', { name: 'C', role: 'group', kids: ['/x'] });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/c'] });
    mirror.apply(event('/w', 'ChildrenChanged', 'add', 2));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B', 'C', 'X']);
  });

  it('falls back when an event names a node the tree never held, and the reader cannot place it', async () => {
    const app = fixture();
    app.parent = undefined;
    const mirror = await loaded(app);
    mirror.apply(event('/ghost', 'StateChanged', 'checked', 1));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'unknown-node' });
  });

  it('takes a known node hidden and then removed as just its removal', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    mirror.apply(event('/a', 'StateChanged', 'showing', 0));
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/b'] });
    app.nodes.delete('/a');
    mirror.apply(event('/w', 'ChildrenChanged', 'remove', 0));
    mirror.apply(event('/a', 'StateChanged', 'defunct', 1));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'B']);
    expect(app.calls).not.toContain('node /a');
  });

  it('falls back when a known node changed visibility and stays in the tree', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    mirror.apply(event('/a', 'StateChanged', 'visible', 0));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'visibility' });
    // Removed and then added again under the same path, it is in the tree all the same.
    const again = await loaded(app);
    again.apply(event('/a', 'StateChanged', 'showing', 0));
    again.apply(event('/w', 'ChildrenChanged', 'remove', 0));
    again.apply(event('/w', 'ChildrenChanged', 'add', 0));
    await expect(again.flush(app)).rejects.toMatchObject({ reason: 'visibility' });
  });

  it('falls back when a node it never held changes visibility and is not read anew', async () => {
    const app = fixture();
    app.parent = undefined;
    const mirror = await loaded(app);
    mirror.apply(event('/ghost', 'StateChanged', 'showing', 1));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'unknown-node' });
    // One the patch reads after the event, with its subtree, is current.
    app.nodes.set('/c', { name: 'C', role: 'group', kids: [] });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/c'] });
    const added = await loaded(fixture());
    added.apply(event('/c', 'StateChanged', 'showing', 1));
    added.apply(event('/w', 'ChildrenChanged', 'add', 2));
    await added.flush(app);
    expect(names(added.snapshot())).toEqual(['app', 'Window', 'A', 'B', 'C']);
  });

  it('takes a dead object it never held as gone, not as a node it missed', async () => {
    const app = fixture();
    app.parent = undefined;
    const mirror = await loaded(app);
    for (let cell = 0; cell < 20; cell += 1) mirror.apply(event(`/cell/${cell}`, 'StateChanged', 'defunct', 1));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B']);
    // Still unknown: any other event on it, or a defunct that is cleared.
    mirror.apply(event('/cell/99', 'StateChanged', 'defunct', 0));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'unknown-node' });
  });

  it('takes a failed call on a node that the structure patch then removes as its removal', async () => {
    const app = fixture();
    app.nodes.set('/b', { name: 'B', role: 'label', kids: [], value: 'text' });
    const mirror = await loaded(app);
    // The node died before its events arrived: its value read fails, and its parent's list no longer holds it.
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a'] });
    app.value = (): Promise<ValueRead> => Promise.reject(new Error('org.a11y.atspi.Error.UnknownObject /b'));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A']);
    expect(app.calls).toEqual(['children /w']);
  });

  it('falls back when a node a call failed on is still listed', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    const failing = app.node.bind(app);
    app.node = (path: string): Promise<Node> => (path === '/a' ? Promise.reject(new Error('org.a11y.atspi.Error.Failed')) : failing(path));
    mirror.apply(event('/a', 'PropertyChange', 'accessible-name'));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'failed-call' });
    expect(app.calls).toContain('children /w');
  });

  it('falls back on an event flood', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    for (let index = 0; index <= LIMITS.maxPending; index += 1) mirror.apply(event('/a', 'StateChanged', 'armed', 1));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'overflow' });
  });

  it('falls back when a patch call fails', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    app.nodes.delete('/a');
    mirror.apply(event('/a', 'PropertyChange', 'accessible-name'));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'failed-call' });
  });

  it('falls back when a label another node was named after is renamed', async () => {
    const app = fixture();
    const mirror = new AppMirror(LIMITS);
    const tree = app.tree();
    const field = node('/f', 'B', 'textfield');
    field.nameFrom = 'label';
    tree.children?.[0]?.children?.push(field);
    mirror.load(tree);
    app.nodes.set('/b', { name: 'Bee', role: 'label', kids: [] });
    mirror.apply(event('/b', 'PropertyChange', 'accessible-name'));
    const failure = await mirror.flush(app).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MirrorUntrusted);
    expect(failure).toMatchObject({ reason: 'derived-name' });
  });

  it('re-reads the node that had focus when focus moves, since it may say nothing', async () => {
    const app = fixture();
    app.nodes.set('/a', { name: 'A', role: 'button', kids: [], focused: true });
    const mirror = await loaded(app);
    app.nodes.set('/a', { name: 'A', role: 'button', kids: [] });
    app.nodes.set('/b', { name: 'B', role: 'label', kids: [], focused: true });
    mirror.apply(event('/b', 'StateChanged', 'focused', 1));
    await mirror.flush(app);
    const [a, b] = mirror.snapshot().children?.[0]?.children ?? [];
    expect([a?.states.focused, b?.states.focused]).toEqual([false, true]);
  });

  it('serves copies: the tree handed out stays as it was while the mirror is patched', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    const first = mirror.snapshot();
    expect(mirror.snapshot()).toBe(first);
    app.nodes.set('/a', { name: 'A2', role: 'button', kids: [] });
    mirror.apply(event('/a', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    expect(names(first)).toEqual(['app', 'Window', 'A', 'B']);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A2', 'B']);
  });

  it('serves the same copy while nothing changed, though the focused node is read again each time', async () => {
    const app = fixture();
    app.nodes.set('/a', { name: 'A', role: 'button', kids: [], focused: true });
    const mirror = await loaded(app);
    const first = mirror.snapshot();
    await mirror.flush(app);
    expect(app.calls).toEqual(['node /a']);
    expect(mirror.snapshot()).toBe(first);
  });

  it('trusts itself only once two full reads agree on the size', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    expect(mirror.settled).toBe(false);
    mirror.load(app.tree());
    expect(mirror.settled).toBe(true);
  });
});

describe('AppMirror and names guessed from the layout', () => {
  it('names a field after the label the layout now puts beside it, and takes the guess back when it moves away', async () => {
    const app = fixture();
    app.nodes.set('/a', { name: '', role: 'textfield', kids: [] });
    const mirror = await loaded(app);
    mirror.snapshot();
    app.layout.set('/a', 'Row 2');
    app.nodes.set('/b', { name: 'B2', role: 'label', kids: [] });
    mirror.apply(event('/b', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    expect(mirror.snapshot().children?.[0]?.children?.[0]).toMatchObject({ name: 'Row 2', nameFrom: 'geometry' });
    app.layout.clear();
    app.nodes.set('/b', { name: 'B3', role: 'label', kids: [] });
    mirror.apply(event('/b', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    const field = mirror.snapshot().children?.[0]?.children?.[0];
    expect([field?.name, field?.nameFrom]).toEqual(['', undefined]);
  });

  it('looks at the layout once more in the read after a change, where the labels may have moved since (no event says so)', async () => {
    const app = fixture();
    app.nodes.set('/a', { name: '', role: 'textfield', kids: [] });
    const mirror = await loaded(app);
    mirror.snapshot();
    app.nodes.set('/b', { name: 'B2', role: 'label', kids: [] });
    mirror.apply(event('/b', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    expect(mirror.snapshot().children?.[0]?.children?.[0]).toMatchObject({ name: '' });
    expect(app.relayouts).toBe(1);
    // The toolkit lays the label out beside the field after that read, with no event.
    app.layout.set('/a', 'Row 2');
    await mirror.flush(app);
    expect(mirror.snapshot().children?.[0]?.children?.[0]).toMatchObject({ name: 'Row 2', nameFrom: 'geometry' });
    // Once only: the reads after that one, with nothing changed, do not look again.
    const relayouts = app.relayouts;
    await mirror.flush(app);
    await mirror.flush(app);
    expect(app.relayouts).toBe(relayouts);
  });

  it('does not look at the layout when nothing changed', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    mirror.snapshot();
    await mirror.flush(app);
    expect(app.relayouts).toBe(0);
  });
});

describe('AppMirror against the cache, for what no event announces', () => {
  it('re-reads a node whose cache row changed, and only that node', async () => {
    const app = fixture();
    app.cached = true;
    const mirror = await loaded(app);
    app.nodes.set('/b', { name: 'B2', role: 'label', kids: [] });
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B2']);
    expect(app.calls.filter((call) => call.startsWith('node'))).toEqual(['node /b']);
    expect(mirror.silentChanges).toBeGreaterThan(0);
  });

  it('lists a parent again when the cache holds a child it did not (a list filled lazily)', async () => {
    const app = fixture();
    app.cached = true;
    const mirror = await loaded(app);
    app.nodes.set('/c', { name: 'C', role: 'button', kids: [] });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/c'] });
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'B', 'C']);
    expect(app.calls).toContain('subtree /c');
  });

  it('orders children by the cache index, as a full read does', async () => {
    const app = fixture();
    app.cached = true;
    const mirror = await loaded(app);
    app.nodes.set('/c', { name: 'C', role: 'button', kids: [], index: 0 });
    app.nodes.set('/a', { name: 'A', role: 'button', kids: [], index: 1 });
    app.nodes.set('/b', { name: 'B', role: 'label', kids: [], index: 2 });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/c'] });
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'C', 'A', 'B']);
  });

  it('keeps a child whose cache row names a parent outside the tree where its parent lists it, as a full read adopts it', async () => {
    // LibreOffice Calc: its window lists empty groups whose rows name sidebar panels it detached
    // (rows of their own, in no list). A full read adopts them under the window; relisting the
    // window once dropped them for good, 11 nodes short of a whole read until the next one.
    const app = fixture();
    app.cached = true;
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/g', '/b'] });
    app.nodes.set('/g', { name: '', role: 'group', kids: [] });
    app.nodes.set('/panel', { name: 'Panel', role: 'group', kids: [] });
    app.rowParents.set('/g', '/panel');
    const rows = await app.rows();
    expect(rows?.get('/g')?.parentPath).toBe('/panel');
    expect(rows?.has('/panel')).toBe(true);
    const mirror = await loaded(app);
    app.nodes.set('/c', { name: 'C', role: 'button', kids: [] });
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/g', '/b', '/c'] });
    mirror.apply(event('/w', 'ChildrenChanged', 'add', 3));
    await mirror.flush(app);
    expect(app.calls).toContain('children /w');
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', '', 'B', 'C']);
    expect(names(mirror.snapshot())).toEqual(names(app.tree()));
  });

  it('leaves out a child its cache row places under another parent the tree holds (GTK3 lists a popup inside twice)', async () => {
    const app = fixture();
    app.cached = true;
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b', '/popup'] });
    app.nodes.set('/a', { name: 'A', role: 'button', kids: ['/item'] });
    app.nodes.set('/popup', { name: 'Popup', role: 'menu', kids: ['/item'] });
    app.nodes.set('/item', { name: 'Item', role: 'menuitem', kids: [] });
    app.rowParents.set('/item', '/popup');
    const mirror = new AppMirror(LIMITS);
    mirror.load(
      node(ROOT_PATH, 'app', 'application', [
        node('/w', 'Window', 'window', [node('/a', 'A'), node('/b', 'B', 'label'), node('/popup', 'Popup', 'menu', [node('/item', 'Item', 'menuitem')])]),
      ]),
      await app.rows(),
    );
    app.nodes.set('/c', { name: 'C', role: 'button', kids: [] });
    app.nodes.set('/a', { name: 'A', role: 'button', kids: ['/item', '/c'] });
    mirror.apply(event('/a', 'ChildrenChanged', 'add', 1));
    await mirror.flush(app);
    expect(app.calls).toContain('children /a');
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A', 'C', 'B', 'Popup', 'Item']);
  });

  it('reads the states of nodes the cache leaves out, and re-reads one whose states changed', async () => {
    const app = fixture();
    app.cached = true;
    app.uncached.add('/b');
    const mirror = await loaded(app);
    app.nodes.set('/b', { name: 'B', role: 'label', kids: [], focused: true });
    await mirror.flush(app);
    expect(mirror.snapshot().children?.[0]?.children?.[1]?.states.focused).toBe(true);
    expect(app.calls.filter((call) => !call.startsWith('children'))).toEqual(['states /b', 'node /b']);
  });

  it('trusts the events for walked nodes where the app announces every state change (Chromium), so a patched read is cheap', async () => {
    const app = fixture();
    app.cached = true;
    app.uncached = new Set(['/a', '/b']);
    app.walkedStatesAnnounced = true;
    const mirror = await loaded(app);
    await mirror.flush(app);
    expect(app.calls.filter((call) => call.startsWith('states'))).toEqual([]);
    expect(mirror.checkReads).toBe(0);
    // The announced change is what patches it: the event marks /b, and only /b is read again.
    app.nodes.set('/b', { name: 'B', role: 'label', kids: [], focused: true });
    mirror.apply(event('/b', 'StateChanged', 'focused', 1));
    app.calls.length = 0;
    await mirror.flush(app);
    expect(mirror.snapshot().children?.[0]?.children?.[1]?.states.focused).toBe(true);
    expect(app.calls.filter((call) => !call.startsWith('children'))).toEqual(['node /b']);
  });

  it('reads every value again, since text and numbers change without events', async () => {
    const app = fixture();
    app.nodes.set('/a', { name: 'A', role: 'textfield', kids: [], value: 'old' });
    const mirror = await loaded(app);
    app.nodes.set('/a', { name: 'A', role: 'textfield', kids: [], value: 'new' });
    const before = mirror.snapshot();
    await mirror.flush(app);
    expect(mirror.snapshot().children?.[0]?.children?.[0]?.value).toBe('new');
    expect(before.children?.[0]?.children?.[0]?.value).toBe('old');
    expect(app.calls).toEqual(['value /a']);
  });

  it('reads no value twice when an event already had the node read', async () => {
    const app = fixture();
    app.nodes.set('/a', { name: 'A', role: 'textfield', kids: [], value: 'old' });
    const mirror = await loaded(app);
    app.nodes.set('/a', { name: 'A', role: 'textfield', kids: [], value: 'new' });
    mirror.apply(event('/a', 'TextChanged', 'insert'));
    await mirror.flush(app);
    expect(app.calls).toEqual(['node /a']);
    expect(mirror.silentChanges).toBe(0);
  });
});
