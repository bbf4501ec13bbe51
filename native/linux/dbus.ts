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

export class DbusConnection {
  private constructor(private readonly bus: dbus.MessageBus) {}

  static async connect(address: string, timeoutMs = DEFAULT_CALL_TIMEOUT_MS): Promise<DbusConnection> {
    const bus = dbus.sessionBus({ busAddress: address });
    const connection = new DbusConnection(bus);
    // The first call also waits for the handshake, and fails fast when the socket is gone.
    await connection.call(
      { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'GetId' },
      timeoutMs,
    );
    return connection;
  }

  /** Calls a method and returns the reply body; rejects with DbusTimeoutError or DbusCallError. */
  call(call: MethodCall, timeoutMs = DEFAULT_CALL_TIMEOUT_MS): Promise<unknown[]> {
    const message = new dbus.Message({
      destination: call.destination,
      path: call.path,
      interface: call.interface,
      member: call.member,
      ...(call.signature === undefined ? {} : { signature: call.signature, body: call.body ?? [] }),
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new DbusTimeoutError(call, timeoutMs)), timeoutMs);
      this.bus.call(message).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply?.body ?? []);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (error instanceof dbus.DBusError) reject(new DbusCallError(error.type, error.text, call));
          else reject(error);
        },
      );
    });
  }

  /** Reads one property through org.freedesktop.DBus.Properties.Get, unwrapping the variant. */
  async getProperty(destination: string, path: string, iface: string, name: string, timeoutMs?: number): Promise<unknown> {
    const [variant] = await this.call(
      { destination, path, interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [iface, name] },
      timeoutMs,
    );
    return (variant as dbus.Variant).value;
  }

  async setProperty(destination: string, path: string, iface: string, name: string, signature: string, value: unknown): Promise<void> {
    await this.call({
      destination,
      path,
      interface: 'org.freedesktop.DBus.Properties',
      member: 'Set',
      signature: 'ssv',
      body: [iface, name, new dbus.Variant(signature, value)],
    });
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

  close(): void {
    this.bus.disconnect();
  }
}
