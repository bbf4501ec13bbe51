/**
 * The D-Bus wire boundary: a client of our own (dbus-writer.ts, dbus-reader.ts, dbus-message.ts,
 * dbus-socket.ts) with a timeout on every call, because a frozen app (SIGSTOP) would otherwise
 * block a call for ever. A tree read makes thousands of calls, so the wire code is kept lean:
 * dbus-next, used before, spent more CPU per call than the apps answering. No AT-SPI knowledge
 * lives here.
 */
import { Variant } from './dbus-variant';
import { MESSAGE_TYPE, bodyReader, type CallFields, type WireMessage } from './dbus-message';
import { readPicked, type PropertyPick } from './dbus-pick';
import { DbusSocket } from './dbus-socket';
import { DbusCallError, DbusDisconnectedError, DbusTimeoutError } from './dbus-errors';

export { Variant } from './dbus-variant';
export { DbusCallError, DbusDisconnectedError, DbusTimeoutError } from './dbus-errors';
export { PropertyPick } from './dbus-pick';

export const DEFAULT_CALL_TIMEOUT_MS = 2000;

/** A method call: its fields are the ones the wire writes (dbus-message.ts), named once there. */
export type MethodCall = CallFields;

export interface Signal {
  sender: string;
  path: string;
  interface: string;
  member: string;
  body: unknown[];
}

interface Pending {
  call: MethodCall;
  /** A call of its own: its promise's. */
  resolve: ((value: unknown) => void) | undefined;
  reject: ((error: Error) => void) | undefined;
  /** A call of a group (callGroup): the group, and the call's slot in it. */
  group: Group | undefined;
  slot: number;
  /** How the reply's body is read: the whole body, the value of its variant (a property), or picked properties of its a{sv}. */
  reading: Reading;
  /** performance.now() past which the call has timed out. */
  deadline: number;
  timeoutMs: number;
}

/** Calls answered together (callGroup): each slot a reply's value or the Error its call failed with. */
interface Group {
  results: unknown[];
  left: number;
  done: (results: unknown[]) => void;
}

/** How a reply's body is read (Pending.reading): a PropertyPick reads the named properties of a GetAll. */
export type Reading = 'body' | 'unwrap' | PropertyPick;

function settle(entry: Pending, value: unknown, error: Error | undefined): void {
  const group = entry.group;
  if (group === undefined) {
    if (error === undefined) (entry.resolve as (value: unknown) => void)(value);
    else (entry.reject as (error: Error) => void)(error);
    return;
  }
  group.results[entry.slot] = error ?? value;
  group.left -= 1;
  if (group.left === 0) group.done(group.results);
}

/** What a property's reply of another shape than `v` gave: its first value's, if a variant. */
function variantIn(body: unknown[]): unknown {
  return body[0] instanceof Variant ? body[0].value : undefined;
}

const BUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' } as const;

export class DbusConnection {
  /** Calls waiting for their reply, by serial. */
  private readonly pending = new Map<number, Pending>();
  /**
   * One timer for all waiting calls, set for the earliest deadline, instead of one per call
   * (a tree read makes tens of thousands of calls); cleared whenever nothing waits.
   */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private readonly signalListeners: ((signal: Signal) => void)[] = [];
  private closedBecause: string | undefined;
  private serial = 0;
  private readonly socket: DbusSocket;

  private constructor(
    readonly address: string,
    /** A direct connection to one app (no bus daemon): no Hello, and no destination on messages. */
    private readonly peer: boolean,
    /** The error a call gets when the connection is gone (by default DbusDisconnectedError). */
    private readonly goneError: (call: MethodCall, why: string) => Error,
  ) {
    this.socket = new DbusSocket(address, {
      message: (message, buffer, offset, length) => this.receive(message, buffer, offset, length),
      lost: (why) => this.lost(why),
    });
  }

  /**
   * Opens a connection and waits for the bus to answer. On any failure the socket is closed
   * again before this rejects: a half-open connection would keep the process alive for ever.
   */
  static async connect(
    address: string,
    timeoutMs = DEFAULT_CALL_TIMEOUT_MS,
    { peer = false, goneError }: { peer?: boolean; goneError?: (call: MethodCall, why: string) => Error } = {},
  ): Promise<DbusConnection> {
    let connection: DbusConnection;
    try {
      connection = new DbusConnection(address, peer, goneError ?? ((_call, why) => new DbusDisconnectedError(address, why)));
    } catch (error) {
      // An address with no unix socket in it (or one Node cannot open) fails at once.
      throw new DbusDisconnectedError(address, error instanceof Error ? error.message : String(error));
    }
    try {
      // Hello must be the first message; the next call waits for the handshake, and fails fast when the socket is gone.
      if (peer) await connection.call({ destination: '', path: '/', interface: 'org.freedesktop.DBus.Peer', member: 'Ping' }, timeoutMs);
      else await Promise.all([connection.call({ ...BUS, member: 'Hello' }, timeoutMs), connection.call({ ...BUS, member: 'GetId' }, timeoutMs)]);
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  /** Why the connection is closed, or undefined while it is open. */
  get closed(): string | undefined {
    return this.closedBecause;
  }

  /** Calls a method and returns the reply body; rejects with DbusTimeoutError, DbusCallError or DbusDisconnectedError. */
  call(call: MethodCall, timeoutMs = DEFAULT_CALL_TIMEOUT_MS): Promise<unknown[]> {
    return this.send(call, timeoutMs, 'body') as Promise<unknown[]>;
  }

  /**
   * Sends a call and waits for its reply: the body, or with `unwrap` the value of the variant it
   * holds (a property's reply), taken out where the reply is matched rather than in a promise
   * chained per call.
   */
  private send(call: MethodCall, timeoutMs: number, reading: Reading): Promise<unknown> {
    if (this.closedBecause !== undefined) return Promise.reject(this.goneError(call, this.closedBecause));
    this.serial = this.serial >= 0xffffffff ? 1 : this.serial + 1;
    const serial = this.serial;
    return new Promise((resolve, reject) => {
      try {
        // Encoded straight from the call: no message object per call of a read's tens of thousands.
        this.socket.sendCall(serial, call, !this.peer);
      } catch (error) {
        // A body that does not fit its signature is the caller's mistake, said at once.
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      const deadline = performance.now() + timeoutMs;
      this.pending.set(serial, { call, resolve, reject, group: undefined, slot: 0, deadline, timeoutMs, reading });
      if (deadline < this.timerAt) this.arm(deadline);
    });
  }

  /**
   * Sends calls together and resolves once all are answered, never rejecting: each slot holds
   * its reply's value (read as `readings` says at the same slot: the body, a property's value,
   * picked properties) or the Error its call failed with. One promise and no closures for the
   * lot: a tree read asks each node three or four things at once, for every node.
   */
  callGroup(calls: readonly MethodCall[], readings: readonly Reading[], timeoutMs = DEFAULT_CALL_TIMEOUT_MS): Promise<unknown[]> {
    return new Promise((done) => {
      const group: Group = { results: new Array<unknown>(calls.length), left: calls.length, done };
      if (calls.length === 0) return done(group.results);
      const deadline = performance.now() + timeoutMs;
      for (let slot = 0; slot < calls.length; slot += 1) {
        const call = calls[slot] as MethodCall;
        const reading = readings[slot] ?? 'body';
        const entry: Pending = { call, resolve: undefined, reject: undefined, group, slot, deadline, timeoutMs, reading };
        if (this.closedBecause !== undefined) {
          settle(entry, undefined, this.goneError(call, this.closedBecause));
          continue;
        }
        this.serial = this.serial >= 0xffffffff ? 1 : this.serial + 1;
        try {
          this.socket.sendCall(this.serial, call, !this.peer);
        } catch (error) {
          settle(entry, undefined, error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        this.pending.set(this.serial, entry);
      }
      if (deadline < this.timerAt && this.pending.size > 0) this.arm(deadline);
    });
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    // A millisecond late rather than early: a timer may fire a hair before its time.
    this.timer = setTimeout(() => this.expire(), Math.max(0, Math.ceil(at - performance.now())) + 1);
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Fails the calls whose deadline has passed, and sets the timer for the next one. */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    const late: Pending[] = [];
    for (const [serial, entry] of this.pending) {
      if (entry.deadline <= now) {
        this.pending.delete(serial);
        late.push(entry);
      } else next = Math.min(next, entry.deadline);
    }
    if (next !== Infinity) this.arm(next);
    for (const entry of late) settle(entry, undefined, new DbusTimeoutError(entry.call, entry.timeoutMs));
  }

  /** A message whose body is still in `buffer` (the socket's: read here, before this returns, or never). */
  private receive(message: WireMessage, buffer: Buffer, offset: number, length: number): void {
    if (message.type === MESSAGE_TYPE.methodReturn || message.type === MESSAGE_TYPE.error) {
      const entry = message.replySerial === undefined ? undefined : this.pending.get(message.replySerial);
      if (entry === undefined) return; // timed out already: its body is not read
      // Read before the entry leaves: a body that does not parse loses the connection, which fails the entry with the rest.
      const reader = bodyReader(buffer, offset, length, message.bodyAt ?? offset + length);
      const signature = message.signature ?? '';
      if (message.type === MESSAGE_TYPE.error) {
        const [text] = reader.readAll(signature);
        this.pending.delete(message.replySerial as number);
        settle(entry, undefined, new DbusCallError(message.errorName ?? 'org.freedesktop.DBus.Error.Failed', typeof text === 'string' ? text : '', entry.call));
        return;
      }
      const reading = entry.reading;
      let value: unknown;
      if (reading === 'body') value = reader.readAll(signature);
      else if (reading === 'unwrap') value = signature === 'v' ? reader.variantValue() : variantIn(reader.readAll(signature));
      // A reply of another shape is read (and checked) whole, and has none of the properties.
      else value = signature === 'a{sv}' ? readPicked(reader, reading) : (reader.readAll(signature), new Array<unknown>(reading.names.length).fill(undefined));
      // The timer stays set when nothing waits: it finds nothing when it fires, which costs less
      // than clearing and setting it again for each turn of a read's replies.
      this.pending.delete(message.replySerial as number);
      settle(entry, value, undefined);
      return;
    }
    if (message.bodyAt !== undefined) message.body = bodyReader(buffer, offset, length, message.bodyAt).readAll(message.signature ?? '');
    if (message.type === MESSAGE_TYPE.signal) {
      const signal = {
        sender: message.sender ?? '',
        path: message.path ?? '',
        interface: message.interface ?? '',
        member: message.member ?? '',
        body: message.body ?? [],
      };
      for (const listener of this.signalListeners) listener(signal);
      return;
    }
    if (message.type === MESSAGE_TYPE.methodCall && message.sender !== undefined) this.answerCall(message);
  }

  /** Nobody should call a reader, but a caller must not wait on its timeout: Peer.Ping is answered, the rest refused. */
  private answerCall(message: WireMessage): void {
    if (((message.flags ?? 0) & 0x1) !== 0) return;
    this.serial = this.serial >= 0xffffffff ? 1 : this.serial + 1;
    const ping = message.interface === 'org.freedesktop.DBus.Peer' && message.member === 'Ping';
    this.socket.send({
      type: ping ? MESSAGE_TYPE.methodReturn : MESSAGE_TYPE.error,
      serial: this.serial,
      replySerial: message.serial,
      destination: message.sender as string,
      ...(ping ? {} : { errorName: 'org.freedesktop.DBus.Error.UnknownMethod', signature: 's', body: [`no method ${message.member ?? ''} here`] }),
    });
  }

  /** The socket failed or closed: fail every waiting call now, and refuse new ones. */
  private lost(why: string): void {
    if (this.closedBecause !== undefined) return;
    this.closedBecause = why;
    this.disarm();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const entry of waiting) settle(entry, undefined, this.goneError(entry.call, why));
  }

  /** Reads one property through org.freedesktop.DBus.Properties.Get, unwrapping the variant. */
  getProperty(destination: string, path: string, iface: string, name: string, timeoutMs = DEFAULT_CALL_TIMEOUT_MS): Promise<unknown> {
    // No async function or chained promise: a read asks thousands of properties.
    return this.send(
      { destination, path, interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [iface, name] },
      timeoutMs,
      'unwrap',
    );
  }

  /**
   * Properties.GetAll of one interface, for the properties `pick` names: their values in its
   * order (undefined where the reply lacks one), each as getProperty gives it. Nothing is made
   * for the reply's other properties.
   */
  getProperties(destination: string, path: string, iface: string, pick: PropertyPick, timeoutMs = DEFAULT_CALL_TIMEOUT_MS): Promise<unknown[]> {
    return this.send(
      { destination, path, interface: 'org.freedesktop.DBus.Properties', member: 'GetAll', signature: 's', body: [iface] },
      timeoutMs,
      pick,
    ) as Promise<unknown[]>;
  }

  async setProperty(destination: string, path: string, iface: string, name: string, signature: string, value: unknown, timeoutMs?: number): Promise<void> {
    await this.call(
      {
        destination,
        path,
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Set',
        signature: 'ssv',
        body: [iface, name, new Variant(signature, value)],
      },
      timeoutMs,
    );
  }

  /** Subscribes to signals matching a D-Bus match rule. */
  async addMatch(rule: string): Promise<void> {
    await this.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'AddMatch',
      signature: 's',
      body: [rule],
    });
  }

  /** Undoes addMatch with the same rule. */
  async removeMatch(rule: string): Promise<void> {
    await this.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'RemoveMatch',
      signature: 's',
      body: [rule],
    });
  }

  /**
   * A round trip to a peer (org.freedesktop.DBus.Peer.Ping, which libdbus and GDBus answer
   * themselves). The bus keeps one sender's messages in order, so once the reply is here,
   * every signal the peer sent before it is here too.
   */
  async ping(destination: string, timeoutMs?: number): Promise<void> {
    await this.call({ destination, path: '/', interface: 'org.freedesktop.DBus.Peer', member: 'Ping' }, timeoutMs);
  }

  onSignal(listener: (signal: Signal) => void): void {
    this.signalListeners.push(listener);
  }

  /** The pid behind a bus name, as the bus daemon saw it connect. */
  async pidOf(busName: string, timeoutMs?: number): Promise<number> {
    const [pid] = await this.call(
      {
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'GetConnectionUnixProcessID',
        signature: 's',
        body: [busName],
      },
      timeoutMs,
    );
    return Number(pid);
  }

  /** Closes the socket and fails the calls still waiting; no timer or socket of this connection outlives it. */
  close(): void {
    this.lost('closed by this process');
    this.socket.close();
  }
}
