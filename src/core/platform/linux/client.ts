import { A11Y_BUS, IFACE, REGISTRY, TREE_EVENTS, type EventBody, type ObjectRef } from '../../../../native/linux/atspi';
import { DbusCallError, DbusConnection, DbusTimeoutError, type MethodCall } from '../../../../native/linux/dbus';
import { DeskpilotError, ProcessExitedError, TimeoutError, UnsupportedOperationError } from '../../../shared/errors';
import { isProcessAlive } from '../process';

/** An accessible object plus what the tree fetch learnt about it, so actions need no extra calls. */
export interface AtspiRef {
  pid: number;
  /** Title of the top-level window the node sits in: GTK 4 extents are relative to it. */
  window?: string;
  bus: string;
  path: string;
  interfaces: string[];
  role: number;
  gtk4: boolean;
}

const GONE_ERRORS = new Set([
  'org.freedesktop.DBus.Error.ServiceUnknown',
  'org.freedesktop.DBus.Error.NameHasNoOwner',
  'org.freedesktop.DBus.Error.NoReply',
  'org.freedesktop.DBus.Error.Disconnected',
]);

/** Turns a D-Bus failure into the typed error a caller can act on. */
export function mapDbusError(error: unknown, pid: number | undefined): unknown {
  if (error instanceof DbusTimeoutError) {
    return new TimeoutError(`the app${pid === undefined ? '' : ` (pid ${pid})`} did not answer within ${error.timeoutMs} ms; it may be frozen or busy`, {
      cause: error,
    });
  }
  if (error instanceof DbusCallError) {
    if (pid !== undefined && GONE_ERRORS.has(error.errorName) && !isProcessAlive(pid)) return new ProcessExitedError(pid, { cause: error });
    if (error.errorName.endsWith('UnknownObject') || error.errorName.endsWith('UnknownMethod')) {
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
 * A connection to the accessibility bus, found through org.a11y.Bus.GetAddress on the
 * session bus. It registers for tree-changing events once, which also makes GTK3 turn on its
 * Cache interface; the bus daemon then forwards an app's events only while that app is
 * watched (one match rule per app), so a busy desktop's other apps cost this process nothing.
 */
export class AtspiClient {
  private readonly listeners = new Set<(event: TreeEvent) => void>();
  private readonly watched = new Map<string, Promise<void>>();
  private readonly closers: (() => void)[] = [];

  private constructor(readonly connection: DbusConnection) {
    connection.onSignal((signal) => {
      if (!EVENT_INTERFACES.has(signal.interface) || !this.watched.has(signal.sender)) return;
      const event = toTreeEvent(signal.sender, signal.path, signal.member, signal.body);
      for (const listener of this.listeners) listener(event);
    });
  }

  static async connect(env: Record<string, string | undefined>): Promise<AtspiClient> {
    const sessionAddress = env['DBUS_SESSION_BUS_ADDRESS'];
    if (sessionAddress === undefined || sessionAddress === '') {
      throw new UnsupportedOperationError(
        'No D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset); reading apps on Linux needs a desktop session with AT-SPI2.',
      );
    }
    let address: string;
    try {
      const session = await DbusConnection.connect(sessionAddress);
      try {
        const [reply] = await session.call({ destination: A11Y_BUS.name, path: A11Y_BUS.path, interface: A11Y_BUS.interface, member: 'GetAddress' });
        address = String(reply);
        // Chromium and Electron apps expose their tree only when a screen reader says it is there.
        await session.setProperty(A11Y_BUS.name, A11Y_BUS.path, A11Y_BUS.status, 'IsEnabled', 'b', true).catch(() => undefined);
      } finally {
        session.close();
      }
    } catch (error) {
      throw new UnsupportedOperationError(
        `The AT-SPI2 accessibility bus is not reachable (${(error as Error).message}). Install at-spi2-core and run inside a desktop session.`,
        { cause: error },
      );
    }
    const client = new AtspiClient(await DbusConnection.connect(address));
    await client.registerEvents();
    return client;
  }

  private async registerEvents(): Promise<void> {
    await Promise.all(
      TREE_EVENTS.map((event) =>
        this.connection
          .call({
            destination: REGISTRY.name,
            path: REGISTRY.path,
            interface: REGISTRY.interface,
            member: 'RegisterEvent',
            signature: 'sass',
            body: [event, [], ''],
          })
          .catch(() =>
            // Older registries take only the event name.
            this.connection.call({
              destination: REGISTRY.name,
              path: REGISTRY.path,
              interface: REGISTRY.interface,
              member: 'RegisterEvent',
              signature: 's',
              body: [event],
            }),
          ),
      ),
    );
  }

  /** Starts forwarding one app's events; resolves once the bus daemon routes them here. */
  watch(bus: string): Promise<void> {
    let added = this.watched.get(bus);
    if (added === undefined) {
      added = this.connection.addMatch(matchRule(bus));
      added.catch(() => this.watched.delete(bus));
      this.watched.set(bus, added);
    }
    return added;
  }

  isWatched(bus: string): boolean {
    return this.watched.has(bus);
  }

  /** Stops forwarding an app's events (its mirror was dropped). */
  async unwatch(bus: string): Promise<void> {
    if (!this.watched.delete(bus)) return;
    await this.connection.removeMatch(matchRule(bus)).catch(() => undefined);
  }

  /** Every signal the bus forwarded before this resolves has been delivered to the listeners. */
  async barrier(bus: string, timeoutMs?: number): Promise<void> {
    await this.connection.ping(bus, timeoutMs);
  }

  onTreeEvent(listener: (event: TreeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  call(target: ObjectRef, iface: string, member: string, signature?: string, body?: unknown[], timeoutMs?: number): Promise<unknown[]> {
    const call: MethodCall = {
      destination: target[0],
      path: target[1],
      interface: iface,
      member,
      ...(signature === undefined ? {} : { signature, body: body ?? [] }),
    };
    return this.connection.call(call, timeoutMs);
  }

  property(target: ObjectRef, iface: string, name: string, timeoutMs?: number): Promise<unknown> {
    return this.connection.getProperty(target[0], target[1], iface, name, timeoutMs);
  }

  /** Runs `listener` when the client closes, so what hangs on its events can stop too. */
  onClose(listener: () => void): void {
    this.closers.push(listener);
  }

  close(): void {
    for (const closer of this.closers.splice(0)) closer();
    this.connection.close();
  }
}
