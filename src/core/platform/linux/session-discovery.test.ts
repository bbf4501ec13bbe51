import { describe, expect, it } from 'vitest';
import type { MethodCall } from '../../../../native/linux/dbus';
import { discoverSession, parseEnvironment, setupAdvice, type BusLike, type DiscoveryDeps } from './session-discovery';

interface FakeMachine {
  sockets?: string[];
  x11?: string[];
  /** Replies by member (and the name asked about, for GetConnectionUnixProcessID). */
  replies?: Record<string, unknown>;
  environ?: Record<number, Record<string, string>>;
}

function deps(machine: FakeMachine, calls: string[] = []): DiscoveryDeps {
  const sockets = new Set([...(machine.sockets ?? []), ...(machine.x11 ?? []).map((name) => `/x11/${name}`)]);
  return {
    uid: 1000,
    runUserDir: '/run/user',
    x11SocketDir: '/x11',
    isSocket: (file) => sockets.has(file),
    listDir: (dir) => (dir === '/x11' ? (machine.x11 ?? []) : []),
    readEnviron: (pid) => machine.environ?.[pid],
    connect: (address) => {
      calls.push(`connect ${address}`);
      const bus: BusLike = {
        call: (call: MethodCall) => {
          const key = call.member === 'GetConnectionUnixProcessID' ? `${call.member} ${String(call.body?.[0])}` : call.member;
          calls.push(key);
          const reply = machine.replies?.[key];
          return reply === undefined ? Promise.reject(new Error('ServiceUnknown')) : Promise.resolve([reply]);
        },
        close: () => calls.push('close'),
      };
      return Promise.resolve(bus);
    },
    timeoutMs: 50,
  };
}

describe('discoverSession', () => {
  it('leaves a complete environment alone, without touching any bus', async () => {
    const calls: string[] = [];
    const env = { DISPLAY: ':1', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/given' };
    const found = await discoverSession(env, deps({ sockets: ['/run/user/1000/bus'] }, calls));
    expect(found).toEqual({ env, found: [] });
    expect(calls).toEqual([]);
  });

  it('takes the bus from $XDG_RUNTIME_DIR/bus before /run/user/<uid>/bus, and DISPLAY from the systemd user manager', async () => {
    const calls: string[] = [];
    const machine = {
      sockets: ['/custom/run/bus', '/run/user/1000/bus'],
      replies: { Get: { value: ['DISPLAY=:0', 'XAUTHORITY=/run/user/1000/gdm/Xauthority', 'LANG=C'] }, GetAddress: 'unix:path=/a11y' },
    };
    const found = await discoverSession({ HOME: '/home/ada', XDG_RUNTIME_DIR: '/custom/run' }, deps(machine, calls));
    expect(found.found).toEqual([
      { name: 'DBUS_SESSION_BUS_ADDRESS', value: 'unix:path=/custom/run/bus', how: 'the socket $XDG_RUNTIME_DIR/bus (/custom/run/bus)' },
      { name: 'DISPLAY', value: ':0', how: "the systemd user manager's environment" },
      { name: 'XAUTHORITY', value: '/run/user/1000/gdm/Xauthority', how: "the systemd user manager's environment" },
    ]);
    expect(found.env).toMatchObject({ HOME: '/home/ada', DISPLAY: ':0' });
    expect(found.env['LANG']).toBeUndefined();
    expect(found.accessibilityBus).toBe('unix:path=/a11y');
    // The bus connection is closed whatever was found.
    expect(calls.at(-1)).toBe('close');
  });

  it('without systemd, takes DISPLAY from the environment of the AT-SPI launcher on the bus', async () => {
    const machine = {
      sockets: ['/run/user/1000/bus'],
      replies: { 'GetConnectionUnixProcessID org.a11y.Bus': 4242 },
      environ: { 4242: { DISPLAY: ':7', PATH: '/usr/bin' } },
    };
    const found = await discoverSession({}, deps(machine));
    expect(found.found.map((each) => `${each.name}=${each.value} from ${each.how}`)).toEqual([
      'DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus from the socket /run/user/1000/bus',
      'DISPLAY=:7 from the environment of org.a11y.Bus on the session bus (pid 4242)',
    ]);
  });

  it('falls back to the only X socket, but never picks among several', async () => {
    expect((await discoverSession({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nowhere' }, deps({ x11: ['X3'] }))).found).toEqual([
      { name: 'DISPLAY', value: ':3', how: 'the only X server socket, /x11/X3' },
    ]);
    expect((await discoverSession({}, deps({ x11: ['X3', 'X0'] }))).found).toEqual([]);
  });

  it('never replaces a value given, even an empty-handed search keeps it', async () => {
    const machine = { sockets: ['/run/user/1000/bus'], replies: { Get: { value: ['DISPLAY=:9'] } } };
    const found = await discoverSession({ DISPLAY: ':1' }, deps(machine));
    expect(found.env['DISPLAY']).toBe(':1');
    expect(found.found.map((each) => each.name)).toEqual(['DBUS_SESSION_BUS_ADDRESS']);
  });

  it('a bus that will not connect is no error: the values stay missing', async () => {
    const broken = { ...deps({ sockets: ['/run/user/1000/bus'] }), connect: () => Promise.reject(new Error('ECONNREFUSED')) };
    const found = await discoverSession({}, broken);
    expect(found.found.map((each) => each.name)).toEqual(['DBUS_SESSION_BUS_ADDRESS']);
    expect(found.env['DISPLAY']).toBeUndefined();
  });
});

describe('setupAdvice', () => {
  it('gives the exact env JSON for an MCP client, with this user bus and the X server there is', () => {
    const advice = setupAdvice({}, deps({ x11: ['X0'] }));
    expect(advice).toContain('"env": {"DISPLAY": ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}');
    expect(advice).toMatch(/^this is a setup problem/);
    expect(setupAdvice({}, deps({ x11: ['X1', 'X0'] }))).toContain('(X servers run on :0, :1: pick yours)');
  });
});

it('parseEnvironment keeps values with = in them', () => {
  expect(parseEnvironment(['A=b=c', 'NOVALUE', '=x', ''])).toEqual({ A: 'b=c' });
});
