import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasHeadlessTools, startSession, waitFor, type HeadlessSession } from './session';

const run = promisify(execFile);

function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

const commandName = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

async function accessibleAppPids(session: HeadlessSession): Promise<number[]> {
  const bus = `--bus=${session.a11yBusAddress}`;
  const { stdout } = await run('dbus-send', [
    bus,
    '--print-reply',
    '--dest=org.a11y.atspi.Registry',
    '/org/a11y/atspi/accessible/root',
    'org.a11y.atspi.Accessible.GetChildren',
  ]);
  const names = [...stdout.matchAll(/string "(:[\d.]+)"/g)].map((match) => match[1] ?? '');
  return Promise.all(
    names.map(async (name) => {
      const reply = await run('dbus-send', [
        bus,
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/',
        'org.freedesktop.DBus.GetConnectionUnixProcessID',
        `string:${name}`,
      ]);
      return Number(/uint32 (\d+)/.exec(reply.stdout)?.[1]);
    }),
  );
}

describe('waitFor', () => {
  it('returns the first defined value', async () => {
    let calls = 0;
    await expect(waitFor(() => (++calls === 3 ? 'done' : undefined), 1_000, 'the third call')).resolves.toBe('done');
  });

  it('names what it waited for and the last error when it times out', async () => {
    const probe = () => {
      throw new Error('not yet');
    };
    await expect(waitFor(probe, 50, 'the moon')).rejects.toThrow(/Timed out after 50 ms waiting for the moon; last error: not yet/);
  });
});

// On CI the tools must be there, so a missing package fails here instead of skipping quietly.
describe.skipIf(!hasHeadlessTools() && !process.env['CI'])('headless session', () => {
  let session: HeadlessSession;

  beforeAll(async () => {
    session = await startSession({ openbox: true });
  }, 30_000);

  afterAll(() => session?.stop());

  it('serves X on its own display', async () => {
    expect(session.env['DISPLAY']).toBe(session.display);
    const { stdout } = await run('xdpyinfo', [], { env: session.env });
    expect(stdout).toContain(`name of display:    ${session.display}`);
    expect(stdout).toMatch(/dimensions:\s+1920x1200 pixels/);
  });

  it('keeps HOME, runtime dir and temp files private', () => {
    for (const name of ['HOME', 'XDG_RUNTIME_DIR', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'TMPDIR']) {
      expect(session.env[name]?.startsWith(`${session.directory}/`), `${name}=${session.env[name]}`).toBe(true);
    }
    expect(session.env['DBUS_SESSION_BUS_ADDRESS']).toContain(`unix:path=${session.directory}/`);
    expect(session.env['NO_AT_BRIDGE']).toBeUndefined();
    expect(session.env['GSK_RENDERER']).toBe('cairo');
  });

  it('starts the accessibility bus', () => {
    expect(session.a11yBusAddress).toMatch(/^unix:/);
    expect(session.a11yBusAddress).toContain(session.directory);
  });

  it('runs a second session alongside, on another display', async () => {
    const others = await Promise.all([startSession(), startSession()]);
    try {
      const displays = new Set([session.display, ...others.map((other) => other.display)]);
      expect(displays.size).toBe(3);
      for (const other of others) {
        const { stdout } = await run('xdpyinfo', [], { env: other.env });
        expect(stdout).toContain(`name of display:    ${other.display}`);
        expect(other.a11yBusAddress).not.toBe(session.a11yBusAddress);
      }
    } finally {
      await Promise.all(others.map((other) => other.stop()));
    }
    await run('xdpyinfo', [], { env: session.env });
  }, 30_000);

  it('launches an app that registers with AT-SPI, then stops everything it started', async () => {
    const app = session.launch('gtk3-widget-factory');
    const pid = app.pid ?? -1;
    await waitFor(async () => ((await accessibleAppPids(session)).includes(pid) ? true : undefined), 15_000, 'gtk3-widget-factory to register with AT-SPI');

    const owned = session.processIds();
    expect(owned).toContain(pid);
    expect(owned.map(commandName)).toEqual(expect.arrayContaining(['Xvfb', 'openbox', 'dbus-daemon', 'at-spi-bus-laun', 'at-spi2-registr']));
    const socket = `/tmp/.X11-unix/X${session.display.slice(1)}`;
    expect(existsSync(socket)).toBe(true);

    await Promise.all([session.stop(), session.stop()]);
    await session.stop();

    expect(owned.filter(isAlive)).toEqual([]);
    expect(existsSync(session.directory)).toBe(false);
    expect(existsSync(socket)).toBe(false);
    expect(() => session.launch('true')).toThrow(/stopped/);
  }, 30_000);
});
