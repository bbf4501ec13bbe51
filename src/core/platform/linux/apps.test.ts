import { describe, expect, it } from 'vitest';
import { IFACE, ROOT_PATH } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { AppDirectory } from './apps';

/** Two apps on the registry, each with a window: the calls asked of each bus are counted. */
function desktop(pids: Record<string, number>) {
  const asked = new Map<string, number>();
  const count = (bus: string) => asked.set(bus, (asked.get(bus) ?? 0) + 1);
  const client = {
    registryChildren: () => Promise.resolve(Object.keys(pids).map((bus) => [bus, ROOT_PATH])),
    pidOf: (bus: string) => Promise.resolve(pids[bus] ?? -1),
    property: ([bus, path]: [string, string], iface: string, name: string) => {
      count(bus);
      if (iface === IFACE.application) return Promise.resolve(name === 'ToolkitName' ? 'Chromium' : '120');
      return Promise.resolve(path === ROOT_PATH ? `app on ${bus}` : `window of ${bus}`);
    },
    call: ([bus, path]: [string, string], _iface: string, member: string) => {
      count(bus);
      if (member === 'GetChildren') return Promise.resolve([path === ROOT_PATH ? [[bus, '/w']] : []]);
      return Promise.resolve([[0, 0]]);
    },
    accessibilityOff: () => undefined,
  };
  return { client: client as unknown as AtspiClient, asked };
}

describe('AppDirectory', () => {
  it("describes only a pid's own app to find it, then keeps it until the next listing", async () => {
    // A live pid that is not this process (which the directory leaves out): the parent's.
    const { client, asked } = desktop({ ':1.4': 1, ':1.5': process.ppid });
    const apps = new AppDirectory(client, {});
    const app = await apps.get(process.ppid);
    expect(app).toMatchObject({ bus: ':1.5', name: 'app on :1.5', bridge: { collection: true } });
    expect(asked.get(':1.4')).toBeUndefined();
    const calls = asked.get(':1.5');
    await apps.get(process.ppid);
    expect(asked.get(':1.5')).toBe(calls);
  });
});
