/**
 * The D-Bus wire boundary: a pure-JS client (dbus-next) with a timeout on every call,
 * because dbus-next has none and a frozen app (SIGSTOP) would block a call forever.
 * No AT-SPI knowledge lives here.
 */
import dbus from 'dbus-next';

export const DEFAULT_CALL_TIMEOUT_MS = 2000;

export interface MethodCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

/** A call that got no answer in time. */
export class DbusTimeoutError extends Error {
  constructor(
    readonly call: MethodCall,
    readonly timeoutMs: number,
  ) {
    super(`${call.destination} did not answer ${call.interface}.${call.member} on ${call.path} within ${timeoutMs} ms`);
    this.name = 'DbusTimeoutError';
  }
}

/** An error reply from the peer, keeping its D-Bus error name (org.freedesktop.DBus.Error.*). */
export class DbusCallError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
    readonly call: MethodCall,
  ) {
    super(`${call.interface}.${call.member}: ${errorName}: ${message}`);
    this.name = 'DbusCallError';
  }
}

export interface Signal {
  sender: string;
  path: string;
  interface: string;
  member: string;
  body: unknown[];
}

/**
 * The connection is gone (the bus daemon died, the socket never opened, or close() was
 * called): every call still waiting fails at once with this, instead of at its timeout.
 */
export class DbusDisconnectedError extends Error {
  constructor(
    readonly address: string,
    why: string,
  ) {
    super(`the D-Bus connection to ${address} is closed: ${why}`);
    this.name = 'DbusDisconnectedError';
  }
}

interface Pending {
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** dbus-next keeps its socket private and says nothing when the peer hangs up; its stream tells. */
function streamOf(bus: dbus.MessageBus): NodeJS.EventEmitter | undefined {
  return (bus as unknown as { _connection?: { stream?: NodeJS.EventEmitter } })._connection?.stream;
}

export class DbusConnection {
  private readonly pending = new Set<Pending>();
  private closedBecause: string | undefined;

  private constructor(
    private readonly bus: dbus.MessageBus,
    readonly address: string,
  ) {
    // Without a listener, a socket error (ENOENT, ECONNREFUSED) is an uncaught exception that ends the process.
    bus.on('error', (error: unknown) => this.lost(error instanceof Error ? error.message : String(error)));
    streamOf(bus)?.once('close', () => this.lost('the bus closed the connection'));
  }

  /**
   * Opens a connection and waits for the bus to answer. On any failure the socket is closed
   * again before this rejects: a half-open connection would keep the process alive for ever.
   */
  static async connect(address: string, timeoutMs = DEFAULT_CALL_TIMEOUT_MS): Promise<DbusConnection> {
    let bus: dbus.MessageBus;
    try {
      bus = dbus.sessionBus({ busAddress: address });
    } catch (error) {
      // dbus-next throws at once for an address it cannot read (or an abstract socket it needs usocket for).
      throw new DbusDisconnectedError(address, error instanceof Error ? error.message : String(error));
    }
    const connection = new DbusConnection(bus, address);
    try {
      // The first call also waits for the handshake, and fails fast when the socket is gone.
      await connection.call(
        { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'GetId' },
        timeoutMs,
      );
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
    if (this.closedBecause !== undefined) return Promise.reject(new DbusDisconnectedError(this.address, this.closedBecause));
    const message = new dbus.Message({
      destination: call.destination,
      path: call.path,
      interface: call.interface,
      member: call.member,
      ...(call.signature === undefined ? {} : { signature: call.signature, body: call.body ?? [] }),
    });
    return new Promise((resolve, reject) => {
      const entry: Pending = {
        reject,
        timer: setTimeout(() => {
          this.pending.delete(entry);
          reject(new DbusTimeoutError(call, timeoutMs));
        }, timeoutMs),
      };
      this.pending.add(entry);
      const settle = (): void => {
        clearTimeout(entry.timer);
        this.pending.delete(entry);
      };
      let sent: Promise<dbus.Message | null>;
      try {
        sent = this.bus.call(message);
      } catch (error) {
        settle();
        reject(new DbusDisconnectedError(this.address, error instanceof Error ? error.message : String(error)));
        return;
      }
      sent.then(
        (reply) => {
          settle();
          resolve(reply?.body ?? []);
        },
        (error: unknown) => {
          settle();
          if (error instanceof dbus.DBusError) reject(new DbusCallError(error.type, error.text, call));
          else reject(new DbusDisconnectedError(this.address, error instanceof Error ? error.message : String(error)));
        },
      );
    });
  }

  /** The socket failed or closed: fail every waiting call now, and refuse new ones. */
  private lost(why: string): void {
    if (this.closedBecause !== undefined) return;
    this.closedBecause = why;
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new DbusDisconnectedError(this.address, why));
    }
    this.pending.clear();
    this.bus.removeAllListeners('message');
  }

  /** Reads one property through org.freedesktop.DBus.Properties.Get, unwrapping the variant. */
  async getProperty(destination: string, path: string, iface: string, name: string, timeoutMs?: number): Promise<unknown> {
    const [variant] = await this.call(
      { destination, path, interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [iface, name] },
      timeoutMs,
    );
    return (variant as dbus.Variant).value;
  }

  async setProperty(destination: string, path: string, iface: string, name: string, signature: string, value: unknown, timeoutMs?: number): Promise<void> {
    await this.call(
      {
        destination,
        path,
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Set',
        signature: 'ssv',
        body: [iface, name, new dbus.Variant(signature, value)],
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
    this.bus.on('message', (message: dbus.Message) => {
      if (message.type !== dbus.MessageType.SIGNAL) return;
      listener({ sender: message.sender, path: message.path, interface: message.interface, member: message.member, body: message.body });
    });
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
    if (this.closedBecause === undefined) {
      try {
        this.bus.disconnect();
      } catch {
        // The socket may never have opened; there is nothing left to close then.
      }
    }
    this.lost('closed by this process');
    // end() waits for the peer; a bus that stopped reading must not keep the socket, and the process, alive.
    const stream = streamOf(this.bus) as { destroy?: () => void } | undefined;
    stream?.destroy?.();
  }
}
