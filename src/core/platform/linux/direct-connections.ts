/**
 * Direct (peer-to-peer) connections to apps whose bridge offers one (at-spi2-atk:
 * Application.GetApplicationBusAddress), as libatspi makes them. A call then goes straight to
 * the app instead of through the accessibility bus daemon: half the messages the daemon routes,
 * and measured 1.5–3× the calls per second. Events still come through the bus.
 */
import { IFACE, ROOT_PATH } from '../../../../native/linux/atspi';
import { DbusCallError, DbusConnection, type MethodCall } from '../../../../native/linux/dbus';

/** Connecting is a local socket; an app that takes longer is better read through the bus. */
const CONNECT_TIMEOUT_MS = 500;

/**
 * Only a socket file the app names: not an abstract socket, not TCP. The address comes from the
 * app, so it is bounded and its path must be absolute and plain.
 */
export function directSocketAddress(address: unknown): string | undefined {
  if (typeof address !== 'string' || address.length > 512) return undefined;
  const match = /^unix:path=(\/[A-Za-z0-9_\-./]+)(,guid=[0-9a-f]+)?$/.exec(address);
  return match === null || match[1]?.includes('..') === true ? undefined : address;
}

export class DirectConnections {
  private readonly live = new Map<string, DbusConnection>();
  private readonly asked = new Set<string>();

  /** The app's direct connection, when one is open. */
  get(bus: string): DbusConnection | undefined {
    const connection = this.live.get(bus);
    if (connection !== undefined && connection.closed !== undefined) this.live.delete(bus);
    return connection?.closed === undefined ? connection : undefined;
  }

  /**
   * Opens the app's direct connection, once per app: `ask` reaches the app through the bus.
   * Any failure leaves the app on the bus, which always works.
   */
  async open(bus: string, ask: (call: MethodCall) => Promise<unknown[]>): Promise<void> {
    if (this.asked.has(bus)) return;
    this.asked.add(bus);
    try {
      const [reply] = await ask({ destination: bus, path: ROOT_PATH, interface: IFACE.application, member: 'GetApplicationBusAddress' });
      const address = directSocketAddress(reply);
      if (address === undefined) return;
      // Its socket closing means the app closed it or died: said as the bus says it (NoReply), with
      // no handler chained on each call for it. get() then sends the app's next calls through the bus.
      const goneError = (call: MethodCall): Error => new DbusCallError('org.freedesktop.DBus.Error.NoReply', `the direct connection to ${bus} closed`, call);
      this.live.set(bus, await DbusConnection.connect(address, CONNECT_TIMEOUT_MS, { peer: true, goneError }));
    } catch {
      // No direct connection: the bus carries this app's calls, as before.
    }
  }

  close(): void {
    for (const connection of this.live.values()) connection.close();
    this.live.clear();
  }
}
