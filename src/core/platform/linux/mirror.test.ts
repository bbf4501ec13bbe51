import { describe, expect, it } from 'vitest';
import { ROOT_PATH } from '../../../../native/linux/atspi';
import type { RawNode } from '../../ui/ids';
import type { AtspiRef, TreeEvent } from './client';
import { AppMirror, MirrorUntrusted, type MirrorReader } from './mirror';

type Node = RawNode<AtspiRef>;
const LIMITS = { maxNodes: 100, maxDepth: 10, maxPending: 50 };

function node(path: string, name: string, role: Node['role'] = 'button', children?: Node[]): Node {
  return {
    ref: { pid: 1, bus: ':1.5', path, interfaces: [], role: 43, gtk4: false },
    role,
    platformRole: 'atspi:43',
    name,
    states: { enabled: true, focused: false },
    actions: [],
    ...(children === undefined ? {} : { children }),
  };
}

/** An app as a map of nodes; the reader answers from it, the way tree-fetch answers from D-Bus. */
class FakeApp implements MirrorReader {
  nodes = new Map<string, { name: string; role: Node['role']; kids: string[]; focused?: boolean }>();
  calls: string[] = [];

  tree(path = ROOT_PATH): Node {
    const entry = this.nodes.get(path);
    if (entry === undefined) throw new Error(`org.a11y.atspi.Error.UnknownObject ${path}`);
    const built = node(path, entry.name, entry.role, entry.kids.length > 0 ? entry.kids.map((kid) => this.tree(kid)) : undefined);
    if (entry.focused === true) built.states = { enabled: true, focused: true };
    return built;
  }
  async node(path: string): Promise<Node> {
    this.calls.push(`node ${path}`);
    await Promise.resolve();
    const { children: _children, ...rest } = this.tree(path);
    return rest;
  }
  async subtree(path: string): Promise<Node> {
    this.calls.push(`subtree ${path}`);
    await Promise.resolve();
    return this.tree(path);
  }
  children(path: string): Promise<string[]> {
    this.calls.push(`children ${path}`);
    return Promise.resolve(this.nodes.get(path)?.kids ?? []);
  }
  value(): Promise<number> {
    return Promise.resolve(0);
  }
  name(path: string): Promise<string> {
    return Promise.resolve(this.nodes.get(path)?.name ?? '');
  }
}

function fixture(): FakeApp {
  const app = new FakeApp();
  app.nodes.set(ROOT_PATH, { name: 'app', role: 'application', kids: ['/w'] });
  app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b'] });
  app.nodes.set('/a', { name: 'A', role: 'button', kids: [] });
  app.nodes.set('/b', { name: 'B', role: 'label', kids: [] });
  return app;
}

const event = (path: string, member: string, detail = '', detail1 = 0): TreeEvent => ({ bus: ':1.5', path, member, detail, detail1, data: undefined });

function loaded(app: FakeApp): AppMirror {
  const mirror = new AppMirror(LIMITS);
  mirror.load(app.tree());
  return mirror;
}

const names = (tree: Node): string[] => [tree.name, ...(tree.children ?? []).flatMap(names)];

describe('AppMirror', () => {
  it('re-reads only the node a property change names', async () => {
    const app = fixture();
    const mirror = loaded(app);
    app.nodes.set('/a', { name: 'A2', role: 'button', kids: [] });
    mirror.apply(event('/a', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A2', 'B']);
    expect(app.calls).toEqual(['node /a']);
  });

  it('ignores events that change nothing the tree holds (bounds, caret)', async () => {
    const app = fixture();
    const mirror = loaded(app);
    mirror.apply(event('/a', 'BoundsChanged'));
    mirror.apply(event('/a', 'PropertyChange', 'accessible-table-caption'));
    await mirror.flush(app);
    expect(app.calls).toEqual([]);
  });

  it('adds a new child with its subtree and drops a removed one, in the app order', async () => {
    const app = fixture();
    const mirror = loaded(app);
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

  it('falls back when an event names a node the tree never held', async () => {
    const app = fixture();
    const mirror = loaded(app);
    mirror.apply(event('/ghost', 'StateChanged', 'checked', 1));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'unknown-node' });
  });

  it('falls back on an event flood', async () => {
    const app = fixture();
    const mirror = loaded(app);
    for (let index = 0; index <= LIMITS.maxPending; index += 1) mirror.apply(event('/a', 'StateChanged', 'armed', 1));
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'overflow' });
  });

  it('falls back when a patch call fails', async () => {
    const app = fixture();
    const mirror = loaded(app);
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
    const mirror = loaded(app);
    app.nodes.set('/a', { name: 'A', role: 'button', kids: [] });
    app.nodes.set('/b', { name: 'B', role: 'label', kids: [], focused: true });
    mirror.apply(event('/b', 'StateChanged', 'focused', 1));
    await mirror.flush(app);
    const [a, b] = mirror.snapshot().children?.[0]?.children ?? [];
    expect([a?.states.focused, b?.states.focused]).toEqual([false, true]);
  });

  it('serves copies: the tree handed out stays as it was while the mirror is patched', async () => {
    const app = fixture();
    const mirror = loaded(app);
    const first = mirror.snapshot();
    expect(mirror.snapshot()).toBe(first);
    app.nodes.set('/a', { name: 'A2', role: 'button', kids: [] });
    mirror.apply(event('/a', 'PropertyChange', 'accessible-name'));
    await mirror.flush(app);
    expect(names(first)).toEqual(['app', 'Window', 'A', 'B']);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A2', 'B']);
  });

  it('trusts itself only once two full reads agree on the size', () => {
    const app = fixture();
    const mirror = loaded(app);
    expect(mirror.settled).toBe(false);
    mirror.load(app.tree());
    expect(mirror.settled).toBe(true);
  });
});
