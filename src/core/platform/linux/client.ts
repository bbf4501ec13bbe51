import { A11Y_BUS, IFACE, REGISTRY, ROOT_PATH, TREE_EVENTS, type EventBody, type ObjectRef } from '../../../../native/linux/atspi';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DbusCallError,
  DbusConnection,
  DbusDisconnectedError,
  DbusTimeoutError,
  type MethodCall,
  type PropertyPick,
  type Reading,
} from '../../../../native/linux/dbus';
import { DeskpilotError, ObjectGoneError, ProcessExitedError, TimeoutError } from '../../../shared/errors';
import { isProcessAlive } from '../process';
import { DirectConnections } from './direct-connections';
import {
  accessibilityBusLostError,
  accessibilityOffError,
  briefly,
  noAccessibilityBusError,
  noSessionBusError,
  registryError,
  registryMissing,
} from './availability';

/** An accessible object plus what the tree fetch learnt about it, so actions need no extra calls. */
export interface AtspiRef {
  pid: number;
  /** Title of the top-level window the node sits in: GTK 4 extents are relative to it. */
  window?: string;
  /** The GTK 4 popover the node is in: a surface of its own, so its extents are placed through it. */
  popover?: string;
  bus: string;
  path: string;
  interfaces: string[];
  role: number;
  gtk4: boolean;
  /** Its children are made on demand and too many to list (a spreadsheet): only the visible range was read. */
  huge?: boolean;
}

const GONE_ERRORS = new Set([
  'org.freedesktop.DBus.Error.ServiceUnknown',
  'org.freedesktop.DBus.Error.NameHasNoOwner',
  'org.freedesktop.DBus.Error.NoReply',
  'org.freedesktop.DBus.Error.Disconnected',
]);

/** Turns a D-Bus failure into the typed error a caller can act on. */
export function mapDbusError(error: unknown, pid: number | undefined): unknown {
  if (error instanceof DbusDisconnectedError) return accessibilityBusLostError(error.address, error);
  if (error instanceof DbusTimeoutError) {
    return new TimeoutError(`the app${pid === undefined ? '' : ` (pid ${pid})`} did not answer within ${error.timeoutMs} ms; it may be frozen or busy`, {
      cause: error,
    });
  }
  if (error instanceof DbusCallError) {
    if (pid !== undefined && GONE_ERRORS.has(error.errorName) && !isProcessAlive(pid)) return new ProcessExitedError(pid, { cause: error });
    // The path is gone: the app said so. The action engine may read again and act on the new object.
    if (error.errorName.endsWith('UnknownObject')) return new ObjectGoneError(undefined, { cause: error });
    // Gone too, as some bridges answer for a dead path, or a method the live object lacks:
    // only a look at the path tells which (AtspiAccessibility's act guard looks).
    if (error.errorName.endsWith('UnknownMethod')) {
      return new DeskpilotError('NODE_NOT_FOUND', 'the element no longer exists in the app; read the tree again', { cause: error });
    }
    return new DeskpilotError('ACTION_FAILED', error.message, { cause: error });
  }
  return error;
}

/** One Event.Object signal from an app, as the tree mirror needs it. */
export interface TreeEvent {
  bus: string;
  path: string;
  /** ChildrenChanged, StateChanged, PropertyChange, TextChanged, … */
  member: string;
  /** "add", "remove", "accessible-name", "checked", … */
  detail: string;
  detail1: number;
  /** The variant's value: the child (so) for children-changed, the new value for property-change. */
  data: unknown;
}

function toTreeEvent(sender: string, path: string, member: string, body: unknown[]): TreeEvent {
  const [detail, detail1, , data] = body as Partial<EventBody>;
  const value = data !== null && typeof data === 'object' && 'value' in data ? (data as { value: unknown }).value : data;
  return { bus: sender, path, member, detail: String(detail ?? ''), detail1: Number(detail1 ?? 0), data: value };
}

const matchRule = (bus: string): string => `type='signal',sender='${bus}'`;
const EVENT_INTERFACES = new Set<string>([IFACE.eventObject, IFACE.eventFocus]);

/**
 * Connecting (session bus, accessibility bus, registry) gets this long in all: a CLI command on
 * a broken desktop must say so and exit within 5 s, and each step's own timeout alone could add up to more.
 */
const CONNECT_BUDGET_MS = 2500;
/** A registry answers RegisterEvent in milliseconds; one that takes this long is as good as gone. */
const REGISTER_TIMEOUT_MS = 1500;

export interface ClientOptions {
  /** false: leave org.a11y.Status.IsEnabled as it is (`deskpilot doctor` only looks). */
  switchOn?: boolean;
}

/**
 * A connection to the accessibility bus, found through org.a11y.Bus.GetAddress on the
 * session bus. It registers for tree-changing events once, which also makes GTK3 turn on its
 * Cache interface; the bus daemon then forwards an app's events only while that app is
 * watched (one match rule per app), so a busy desktop's other apps cost this process nothing.
 *
 * It connects on first use, and again after the accessibility bus dropped it or the registry
 * was gone, so a long-lived program (the MCP server, the app's host) recovers when the desktop
 * does. Every failure to connect is a typed UI_NOT_AVAILABLE, and leaves no socket or timer behind.
 */
export class AtspiClient {
  private readonly listeners = new Set<(event: TreeEvent) => void>();
  private readonly watched = new Map<string, Promise<void>>();
  private readonly closers: (() => void)[] = [];
  private readonly direct = new DirectConnections();
  private live: DbusConnection | undefined;
  private opening: Promise<DbusConnection> | undefined;
  /** False after the registry was found gone: a new one knows nothing of our event registrations. */
  private registered = false;
  private shut = false;
  /**
   * True: a tree read sends each of a node's calls on its own through call() and property(), with
   * no call group and no picked GetAll (tree-items.ts' readNode, tree-order.ts' readInOrder), so
   * whatever wraps those two sees every answer whole: bench/tail-cpu.ts --record keeps them so.
   */
  callByCall = false;

  private constructor(
    private readonly env: Record<string, string | undefined>,
    private readonly options: ClientOptions,
  ) {}

  /** A client that connects on the first call, so a program starts (and says why later) on a broken desktop. */
  static open(env: Record<string, string | undefined>, options: ClientOptions = {}): AtspiClient {
    return new AtspiClient(env, options);
  }

  /** Connects now; a broken desktop rejects with UI_NOT_AVAILABLE and nothing left open. */
  static async connect(env: Record<string, string | undefined>, options: ClientOptions = {}): Promise<AtspiClient> {
    const client = new AtspiClient(env, options);
    try {
      await client.ready();
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  /** The open connection, or undefined when there is none yet or it was lost. */
  private current(): DbusConnection | undefined {
    return this.live !== undefined && this.live.closed === undefined && this.registered ? this.live : undefined;
  }

  /** The open connection, connecting (again) first when there is none. */
  private ready(): Promise<DbusConnection> {
    const current = this.current();
    if (current !== undefined) return Promise.resolve(current);
    this.opening ??= this.establish().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async establish(): Promise<DbusConnection> {
    if (this.shut) throw new DeskpilotError('INTERNAL', 'the accessibility client is closed');
    const deadline = performance.now() + CONNECT_BUDGET_MS;
    const left = (): number => Math.max(50, Math.min(DEFAULT_CALL_TIMEOUT_MS, deadline - performance.now()));
    let connection = this.live?.closed === undefined ? this.live : undefined;
    if (connection === undefined) {
      // The old connection's match rules died with it: mirrors see their app unwatched and read afresh.
      this.watched.clear();
      this.live = undefined;
      const address = await this.accessibilityAddress(left);
      try {
        connection = await DbusConnection.connect(address, left());
      } catch (error) {
        throw accessibilityBusLostError(address, error);
      }
    }
    try {
      await this.registerEvents(connection, Math.min(REGISTER_TIMEOUT_MS, left()));
    } catch (error) {
      connection.close();
      this.live = undefined;
      if (error instanceof DbusDisconnectedError) throw accessibilityBusLostError(error.address, error);
      throw registryMissing(error) ? await registryError(this.env, error) : error;
    }
    if (this.shut) {
      connection.close();
      throw new DeskpilotError('INTERNAL', 'the accessibility client is closed');
    }
    if (this.live !== connection) {
      connection.onSignal((signal) => {
        if (!EVENT_INTERFACES.has(signal.interface) || !this.watched.has(signal.sender)) return;
        const event = toTreeEvent(signal.sender, signal.path, signal.member, signal.body);
        for (const listener of this.listeners) listener(event);
      });
    }
    this.live = connection;
    this.registered = true;
    return connection;
  }

  /** The accessibility bus's address, from the session bus, which is closed again whatever happens. */
  private async accessibilityAddress(left: () => number): Promise<string> {
    const sessionAddress = this.env['DBUS_SESSION_BUS_ADDRESS'];
    if (sessionAddress === undefined || sessionAddress === '') throw noSessionBusError(sessionAddress, undefined, this.env);
    let session: DbusConnection;
    try {
      session = await DbusConnection.connect(sessionAddress, left());
    } catch (error) {
      throw noSessionBusError(sessionAddress, error);
    }
    try {
      let reply: unknown;
      try {
        [reply] = await session.call({ destination: A11Y_BUS.name, path: A11Y_BUS.path, interface: A11Y_BUS.interface, member: 'GetAddress' }, left());
      } catch (error) {
        throw noAccessibilityBusError(error);
      }
      if (this.options.switchOn !== false) await this.switchOn(session, left);
      return String(reply);
    } finally {
      session.close();
    }
  }

  /** Chromium and Electron apps expose their tree only when a screen reader is said to be there. */
  private async switchOn(session: DbusConnection, left: () => number): Promise<void> {
    const read = async (): Promise<boolean | undefined> => {
      const value = await session.getProperty(A11Y_BUS.name, A11Y_BUS.path, A11Y_BUS.status, 'IsEnabled', left()).catch(() => undefined);
      return typeof value === 'boolean' ? value : undefined;
    };
    const before = await read();
    let failure = '';
    if (before !== true) {
      await session.setProperty(A11Y_BUS.name, A11Y_BUS.path, A11Y_BUS.status, 'IsEnabled', 'b', true, left()).catch((error: unknown) => {
        failure = briefly(error);
      });
    }
    const after = before === true || failure === '' ? true : await read();
    this.offReason = after === false ? failure : undefined;
  }

  /** Set when IsEnabled is false and could not be turned on: why setting it failed. */
  private offReason: string | undefined;

  /** UI_NOT_AVAILABLE (a11y-disabled) when accessibility is off, else undefined. */
  accessibilityOff(): DeskpilotError | undefined {
    return this.offReason === undefined ? undefined : accessibilityOffError(this.offReason);
  }

  private async registerEvents(connection: DbusConnection, timeoutMs: number): Promise<void> {
    await Promise.all(
      TREE_EVENTS.map((event) =>
        connection
          .call(
            {
              destination: REGISTRY.name,
              path: REGISTRY.path,
              interface: REGISTRY.interface,
              member: 'RegisterEvent',
              signature: 'sass',
              body: [event, [], ''],
            },
            timeoutMs,
          )
          .catch((error: unknown) => {
            if (registryMissing(error)) throw error;
            // Older registries take only the event name.
            return connection.call(
              { destination: REGISTRY.name, path: REGISTRY.path, interface: REGISTRY.interface, member: 'RegisterEvent', signature: 's', body: [event] },
              timeoutMs,
            );
          }),
      ),
    );
  }

  /**
   * The apps registered with AT-SPI, as the registry lists them. A registry that is gone is
   * UI_NOT_AVAILABLE (registry-gone, or no-display when the X server it needs is missing).
   */
  async registryChildren(): Promise<ObjectRef[]> {
    try {
      const [refs] = await this.call([REGISTRY.name, ROOT_PATH], IFACE.accessible, 'GetChildren');
      return refs as ObjectRef[];
    } catch (error) {
      if (error instanceof DbusDisconnectedError) throw accessibilityBusLostError(error.address, error);
      if (!registryMissing(error)) throw error;
      // A registry started again knows nothing of our registrations: register on the next call.
      this.registered = false;
      throw await registryError(this.env, error);
    }
  }

  /** Starts forwarding one app's events; resolves once the bus daemon routes them here. */
  watch(bus: string): Promise<void> {
    let added = this.watched.get(bus);
    if (added === undefined) {
      added = this.ready().then((connection) => connection.addMatch(matchRule(bus)));
      added.catch(() => this.watched.delete(bus));
      this.watched.set(bus, added);
    }
    return added;
  }

  isWatched(bus: string): boolean {
    return this.watched.has(bus);
  }

  /** Which subscription delivers the app's events: another one after an unwatch or a new connection (events were lost between). */
  watchToken(bus: string): unknown {
    return this.watched.get(bus);
  }

  /** Stops forwarding an app's events (its mirror was dropped). */
  async unwatch(bus: string): Promise<void> {
    if (!this.watched.delete(bus)) return;
    await this.current()
      ?.removeMatch(matchRule(bus))
      .catch(() => undefined);
  }

  /** Every signal the bus forwarded before this resolves has been delivered to the listeners. */
  async barrier(bus: string, timeoutMs?: number): Promise<void> {
    await (await this.ready()).ping(bus, timeoutMs);
  }

  onTreeEvent(listener: (event: TreeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  call(target: ObjectRef, iface: string, member: string, signature?: string, body?: unknown[], timeoutMs?: number): Promise<unknown[]> {
    // A plain literal, no spread: this runs for every call of a tree read.
    const call: MethodCall = {
      destination: target[0],
      path: target[1],
      interface: iface,
      member,
      signature,
      body: signature === undefined ? undefined : (body ?? []),
    };
    const peer = this.direct.get(target[0]);
    // A closed direct socket fails the call with NoReply (direct-connections.ts' goneError).
    if (peer !== undefined) return peer.call(call, timeoutMs);
    // The usual case stays one call: no extra promise hop per D-Bus call in a tree walk.
    const current = this.current();
    if (current !== undefined) return current.call(call, timeoutMs);
    return this.ready().then((connection) => connection.call(call, timeoutMs));
  }

  property(target: ObjectRef, iface: string, name: string, timeoutMs?: number): Promise<unknown> {
    const peer = this.direct.get(target[0]);
    if (peer !== undefined) return peer.getProperty(target[0], target[1], iface, name, timeoutMs);
    const current = this.current();
    if (current !== undefined) return current.getProperty(target[0], target[1], iface, name, timeoutMs);
    return this.ready().then((connection) => connection.getProperty(target[0], target[1], iface, name, timeoutMs));
  }

  /**
   * Properties.GetAll of one interface, for the properties `pick` names: their values in its
   * order, undefined where the reply has none (dbus.ts' getProperties: nothing made for the rest).
   */
  properties(target: ObjectRef, iface: string, pick: PropertyPick, timeoutMs?: number): Promise<unknown[]> {
    const peer = this.direct.get(target[0]);
    if (peer !== undefined) return peer.getProperties(target[0], target[1], iface, pick, timeoutMs);
    const current = this.current();
    if (current !== undefined) return current.getProperties(target[0], target[1], iface, pick, timeoutMs);
    return this.ready().then((connection) => connection.getProperties(target[0], target[1], iface, pick, timeoutMs));
  }

  /**
   * Calls on one app sent together and answered together (dbus.ts' callGroup): each slot its
   * reply's value, read as `readings` says at that slot, or the Error its call failed with. Never rejects.
   */
  callGroup(bus: string, calls: readonly MethodCall[], readings: readonly Reading[], timeoutMs?: number): Promise<unknown[]> {
    const peer = this.direct.get(bus);
    if (peer !== undefined) return peer.callGroup(calls, readings, timeoutMs);
    const current = this.current();
    if (current !== undefined) return current.callGroup(calls, readings, timeoutMs);
    return this.ready().then(
      (connection) => connection.callGroup(calls, readings, timeoutMs),
      (error: unknown) => calls.map(() => (error instanceof Error ? error : new Error(String(error)))),
    );
  }

  async setProperty(target: ObjectRef, iface: string, name: string, signature: string, value: unknown): Promise<void> {
    await (await this.ready()).setProperty(target[0], target[1], iface, name, signature, value);
  }

  /**
   * From now on, calls to this app go over a direct connection to it where its bridge offers one
   * (ask only bridges known to answer GetApplicationBusAddress: at-spi2-atk's).
   */
  async connectDirect(bus: string): Promise<void> {
    await this.direct.open(bus, async (call) => (await this.ready()).call(call));
  }

  /** The pid behind an app's bus name. */
  async pidOf(bus: string, timeoutMs?: number): Promise<number> {
    return (await this.ready()).pidOf(bus, timeoutMs);
  }

  /** Runs `listener` when the client closes, so what hangs on its events can stop too. */
  onClose(listener: () => void): void {
    this.closers.push(listener);
  }

  close(): void {
    this.shut = true;
    for (const closer of this.closers.splice(0)) closer();
    this.direct.close();
    this.live?.close();
    this.live = undefined;
  }
}
