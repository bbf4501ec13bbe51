import { describe, expect, it } from 'vitest';
import { DbusCallError } from '../../../../native/linux/dbus';
import { bridgeOf } from './bridges';
import { crashDuringRead } from './read-crash';

const GET_ALL = { destination: ':1.9', path: '/x', interface: 'org.freedesktop.DBus.Properties', member: 'GetAll', body: ['org.a11y.atspi.Accessible'] };
/** A pid no process has: the app is gone. */
const DEAD_PID = 2 ** 22 + 12345;

describe('crashDuringRead', () => {
  it('says the app crashed during the read, with its toolkit and the call in flight, when it left the bus and is dead', async () => {
    const error = new DbusCallError('org.freedesktop.DBus.Error.NoReply', 'recipient disconnected', GET_ALL);
    const crash = await crashDuringRead(error, { pid: DEAD_PID, name: 'FeatherPad\n', bridge: bridgeOf('Qt', '5.15.8') });
    expect(crash).toMatchObject({
      code: 'PROCESS_EXITED',
      data: { duringRead: true, toolkit: 'Qt 5.15.8', call: 'org.freedesktop.DBus.Properties.GetAll("org.a11y.atspi.Accessible")' },
    });
    expect(crash?.message).toMatch(/^FeatherPad \(pid \d+, Qt 5\.15\.8\) exited while its tree was read/);
    expect(crash?.message).not.toMatch(/window/);
  });

  it('leaves other failures, and an app still running, to the usual mapping', async () => {
    const sleeps: number[] = [];
    const sleep = (ms: number): Promise<void> => (sleeps.push(ms), Promise.resolve());
    const bridge = bridgeOf('GTK', '3.24');
    expect(
      await crashDuringRead(new DbusCallError('org.freedesktop.DBus.Error.UnknownObject', 'gone', GET_ALL), { pid: DEAD_PID, name: 'a', bridge }),
    ).toBeUndefined();
    const gone = new DbusCallError('org.freedesktop.DBus.Error.ServiceUnknown', 'no owner', GET_ALL);
    expect(await crashDuringRead(gone, { pid: process.pid, name: 'a', bridge }, sleep)).toBeUndefined();
    // Bounded: it waits a while for the process to go, then gives up.
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.length).toBeLessThan(100);
  });
});
