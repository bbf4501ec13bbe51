/**
 * Node reads for a bridge that answers one fact per message (Qt: no Cache.GetItems, a
 * Properties.GetAll that crashes it, no Collection, no direct connection). There every fact
 * is a round trip through the bus daemon, so a read costs what its calls cost; measured on
 * Qt 5 and Qt 6 the app, the daemon and the reader each spend 20–35 µs of CPU per call, and
 * a node needs its role, states, interfaces, name, description and children.
 *
 * Two of those need no call on a read that follows another:
 * - Interfaces. Qt derives them from the object's class; the one that moves is Component on an
 *   object that is not a widget (a menu item's action has one only while its rect is not
 *   empty), and it moves only with a change the app announces (a menu shown sends
 *   state-changed). So an app's interfaces are kept between reads while its events reach us,
 *   and all dropped at any event from it, or when its subscription lapsed.
 * - The child count. Qt's only containers whose children are made on demand, and may be
 *   millions, are its item views, and every one has the Table interface. A node known to have
 *   none is listed with GetChildren in the round trip that reads it, instead of ChildCount
 *   first and GetChildren after; the rest keep the count first (table-range.ts decides).
 */
import { IFACE, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient, TreeEvent } from './client';
import { sharedList, type Item } from './item';

/** What the memo needs of a client: the app's events, and which subscription delivers them. */
export interface EventSource {
  onTreeEvent(listener: (event: TreeEvent) => void): () => void;
  /** Changes when the app's events stopped reaching us and were subscribed again (events were lost between); undefined while unwatched. */
  watchToken(bus: string): unknown;
}

/** Paths kept per app: a read of a bigger app keeps no more, and asks for the rest. */
export const MAX_KEPT_PATHS = 50_000;
/** Apps kept at once: an app that quit is never asked for again, so the oldest make way. */
export const MAX_KEPT_APPS = 16;

interface AppMemo {
  token: unknown;
  /** Bumped at each event: an answer asked before it may be older than the change. */
  generation: number;
  interfaces: Map<string, readonly string[]>;
}

/** Each app's node interfaces as last read, valid while no event from the app came in between. */
export class InterfaceMemo {
  private readonly apps = new Map<string, AppMemo>();

  constructor(private readonly source: EventSource) {
    source.onTreeEvent((event) => {
      const app = this.apps.get(event.bus);
      if (app === undefined) return;
      app.generation += 1;
      app.interfaces.clear();
    });
  }

  /** The app's memo, or undefined while its events do not reach us (nothing kept would be safe). */
  private app(bus: string): AppMemo | undefined {
    const token = this.source.watchToken(bus);
    if (token === undefined) {
      this.apps.delete(bus);
      return undefined;
    }
    let app = this.apps.get(bus);
    if (app === undefined || app.token !== token) {
      this.apps.delete(bus);
      if (this.apps.size >= MAX_KEPT_APPS) this.apps.delete(this.apps.keys().next().value as string);
      app = { token, generation: 0, interfaces: new Map() };
      this.apps.set(bus, app);
    }
    return app;
  }

  get(self: ObjectRef): readonly string[] | undefined {
    return this.app(self[0])?.interfaces.get(self[1]);
  }

  /** Where an answer asked now will be kept, if no event comes before it does. */
  mark(bus: string): number | undefined {
    return this.app(bus)?.generation;
  }

  keep(self: ObjectRef, interfaces: readonly string[], mark: number | undefined): void {
    const app = this.app(self[0]);
    if (app === undefined || mark === undefined || app.generation !== mark) return;
    if (app.interfaces.size >= MAX_KEPT_PATHS) app.interfaces.clear();
    app.interfaces.set(self[1], sharedList(interfaces));
  }

  /** Whether anything is kept for the app (then a read first lets its pending events in). */
  holds(bus: string): boolean {
    return (this.apps.get(bus)?.interfaces.size ?? 0) > 0;
  }
}

const memos = new WeakMap<object, InterfaceMemo>();

/** The client's memo, made on first use. */
export function memoOf(client: EventSource): InterfaceMemo {
  let memo = memos.get(client);
  if (memo === undefined) memos.set(client, (memo = new InterfaceMemo(client)));
  return memo;
}

/** Lets in the app's events sent before this read (one ping), so none of them lands after the memo was trusted. */
export async function settleKept(client: AtspiClient, bus: string): Promise<void> {
  if (memoOf(client).holds(bus)) await client.barrier(bus);
}

/**
 * One node in one round trip of pipelined calls: role, states, name and description always;
 * interfaces unless kept; its children listed where its interfaces are known and say it is not
 * an item view, its child count otherwise (GetChildren then follows if there are any).
 */
export async function readKeptItem(client: AtspiClient, self: ObjectRef, index: number): Promise<Item> {
  const memo = memoOf(client);
  const kept = memo.get(self);
  const list = kept !== undefined && !kept.includes(IFACE.table);
  const mark = memo.mark(self[0]);
  const interfacesRead = async (): Promise<readonly string[]> => {
    const [interfaces] = await client.call(self, IFACE.accessible, 'GetInterfaces');
    memo.keep(self, interfaces as string[], mark);
    return interfaces as string[];
  };
  const [[role], [states], interfaces, name, description, children] = await Promise.all([
    client.call(self, IFACE.accessible, 'GetRole'),
    client.call(self, IFACE.accessible, 'GetState'),
    kept === undefined ? interfacesRead() : Promise.resolve(kept),
    client.property(self, IFACE.accessible, 'Name'),
    client.property(self, IFACE.accessible, 'Description'),
    list ? client.call(self, IFACE.accessible, 'GetChildren').then(([refs]) => refs as ObjectRef[]) : client.property(self, IFACE.accessible, 'ChildCount'),
  ]);
  return {
    self,
    index,
    childCount: Array.isArray(children) ? children.length : Number(children),
    interfaces: [...interfaces],
    name: String(name ?? ''),
    role: Number(role),
    description: String(description ?? ''),
    states: states as number[],
    ...(Array.isArray(children) ? { listed: children as ObjectRef[] } : {}),
  };
}
