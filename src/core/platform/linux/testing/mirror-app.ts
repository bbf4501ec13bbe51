/**
 * An app for the tree mirror's tests: a map of nodes that answers as tree-fetch answers from
 * D-Bus, recording each call, with the fixture window most tests start from.
 */
import { ROOT_PATH } from '../../../../../native/linux/atspi';
import type { RawNode } from '../../../ui/ids';
import type { AtspiRef, TreeEvent } from '../client';
import { AppMirror, type MirrorReader, type Relayout } from '../mirror';
import type { CacheRows, ValueRead } from '../tree-fetch';

export type Node = RawNode<AtspiRef>;
/** A state bit in a fake cache row; only whether it differs matters here. */
export const STATE_FOCUSED = 1;
export const LIMITS = { maxNodes: 100, maxDepth: 10, maxPending: 50 };

export function node(path: string, name: string, role: Node['role'] = 'button', children?: Node[]): Node {
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
export class FakeApp implements MirrorReader {
  nodes = new Map<string, { name: string; role: Node['role']; kids: string[]; focused?: boolean; value?: string; index?: number; huge?: boolean }>();
  /** Parents nodes name that do not list them (LibreOffice's thrown-away panel items keep theirs). */
  parents = new Map<string, string>();
  /**
   * The parent a node's cache row names where it is not the node listing it (GTK3 lists a popup's
   * insides under its button too; LibreOffice lists groups under its window whose rows name a
   * detached sidebar panel). A named parent no list holds gets a row of its own, under no parent.
   */
  rowParents = new Map<string, string>();
  calls: string[] = [];
  /** Whether the app answers GetItems (GTK does, Chromium does not). */
  cached = false;
  /** Nodes GetItems leaves out, found by walking (GTK3 list rows). */
  uncached = new Set<string>();
  walkedStatesAnnounced: boolean | 'outside-ranges' = false;

  tree(path = ROOT_PATH): Node {
    const entry = this.nodes.get(path);
    if (entry === undefined) throw new Error(`org.a11y.atspi.Error.UnknownObject ${path}`);
    const built = node(path, entry.name, entry.role, entry.kids.length > 0 ? entry.kids.map((kid) => this.tree(kid)) : undefined);
    if (entry.huge === true) built.ref = { ...built.ref, huge: true };
    if (entry.focused === true) built.states = { enabled: true, focused: true };
    if (entry.value !== undefined) built.value = entry.value;
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
  /** Undefined for a reader that cannot place a node it does not hold. */
  parent: ((path: string) => Promise<string | undefined>) | undefined = (path) => {
    this.calls.push(`parent ${path}`);
    const named = this.parents.get(path);
    if (named !== undefined) return Promise.resolve(named);
    if (!this.nodes.has(path)) return Promise.reject(new Error(`org.a11y.atspi.Error.UnknownObject ${path}`));
    return Promise.resolve([...this.nodes].find(([, entry]) => entry.kids.includes(path))?.[0]);
  };
  hasValue(node: Node): boolean {
    return this.nodes.get(node.ref.path)?.value !== undefined;
  }
  value(node: Node): Promise<ValueRead> {
    this.calls.push(`value ${node.ref.path}`);
    return Promise.resolve({ value: this.nodes.get(node.ref.path)?.value ?? '' });
  }
  states(node: Node): Promise<Node['states']> {
    this.calls.push(`states ${node.ref.path}`);
    return Promise.resolve(this.nodes.get(node.ref.path)?.focused === true ? { enabled: true, focused: true } : { enabled: true, focused: false });
  }
  /** What the layout names now: field path → label text. */
  layout = new Map<string, string>();
  relayouts = 0;
  relayout(): Promise<Relayout> {
    this.relayouts += 1;
    return Promise.resolve({ candidates: [...this.nodes.keys()].filter((path) => this.nodes.get(path)?.role === 'textfield'), names: new Map(this.layout) });
  }
  rows(): Promise<CacheRows | undefined> {
    if (!this.cached) return Promise.resolve(undefined);
    const rows: CacheRows = new Map();
    const listed = new Set([...this.nodes.values()].flatMap(({ kids }) => kids));
    const detached = [...new Set(this.rowParents.values())].filter((path) => this.nodes.has(path) && !listed.has(path));
    const lists: [string | undefined, string[]][] = [...[...this.nodes].map(([parent, { kids }]): [string, string[]] => [parent, kids]), [undefined, detached]];
    for (const [parent, kids] of lists)
      kids.forEach((kid, index) => {
        const entry = this.nodes.get(kid);
        if (entry === undefined || this.uncached.has(kid)) return;
        const parentPath = this.rowParents.get(kid) ?? parent;
        rows.set(kid, {
          self: [':1.5', kid],
          ...(parentPath === undefined ? {} : { parentPath }),
          index: entry.index ?? index,
          position: rows.size,
          childCount: entry.kids.length,
          name: entry.name,
          role: 0,
          description: '',
          states: entry.focused === true ? [STATE_FOCUSED] : [],
          interfaces: [],
        });
      });
    return Promise.resolve(rows);
  }
}

export function fixture(): FakeApp {
  const app = new FakeApp();
  app.nodes.set(ROOT_PATH, { name: 'app', role: 'application', kids: ['/w'] });
  app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a', '/b'] });
  app.nodes.set('/a', { name: 'A', role: 'button', kids: [] });
  app.nodes.set('/b', { name: 'B', role: 'label', kids: [] });
  return app;
}

export const event = (path: string, member: string, detail = '', detail1 = 0): TreeEvent => ({ bus: ':1.5', path, member, detail, detail1, data: undefined });

export async function loaded(app: FakeApp): Promise<AppMirror> {
  const mirror = new AppMirror(LIMITS);
  mirror.load(app.tree(), await app.rows());
  return mirror;
}

export const names = (tree: Node): string[] => [tree.name, ...(tree.children ?? []).flatMap(names)];
