/**
 * Finding the user's desktop session when the environment does not name it. MCP clients start
 * their servers with a bare environment (the official SDK passes only HOME, LOGNAME, PATH, SHELL,
 * TERM and USER), so DISPLAY and DBUS_SESSION_BUS_ADDRESS are missing although the user sits at
 * a running desktop. Desktop tools find it the same way: the bus socket in the runtime dir, the
 * systemd user manager's environment, the environment of the session's own services, and the
 * X sockets. Every value found says where it came from, so a result can tell the user.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DbusConnection, type MethodCall } from '../../../../native/linux/dbus';
import { A11Y_BUS } from '../../../../native/linux/atspi';

/** One value taken from the session, and how it was found. */
export interface Discovered {
  name: string;
  value: string;
  how: string;
}

export interface SessionDiscovery {
  /** The environment given, with what was found added (never overriding a value given). */
  env: Record<string, string | undefined>;
  found: Discovered[];
  /** The AT-SPI bus address from org.a11y.Bus.GetAddress, when the session bus answered. */
  accessibilityBus?: string;
}

/** The part of a D-Bus connection discovery uses; tests pass a fake. */
export interface BusLike {
  call(call: MethodCall, timeoutMs?: number): Promise<unknown[]>;
  close(): void;
}

/** The machine as discovery sees it; every path and call can be replaced in tests. */
export interface DiscoveryDeps {
  uid: number;
  /** Where per-user runtime dirs live (`/run/user`). */
  runUserDir: string;
  /** Where X servers put their sockets (`/tmp/.X11-unix`). */
  x11SocketDir: string;
  isSocket: (file: string) => boolean;
  listDir: (dir: string) => string[];
  /** The environment of a process of this user, or undefined when it cannot be read. */
  readEnviron: (pid: number) => Record<string, string> | undefined;
  connect: (address: string, timeoutMs: number) => Promise<BusLike>;
  /** Each bus call gets this long; discovery as a whole stays within a few of them. */
  timeoutMs: number;
}

export function systemDeps(): DiscoveryDeps {
  return {
    uid: process.getuid?.() ?? 0,
    runUserDir: '/run/user',
    x11SocketDir: '/tmp/.X11-unix',
    isSocket: (file) => {
      try {
        return statSync(file).isSocket();
      } catch {
        return false;
      }
    },
    listDir: (dir) => {
      try {
        return readdirSync(dir);
      } catch {
        return [];
      }
    },
    readEnviron: readProcessEnviron,
    connect: (address, timeoutMs) => DbusConnection.connect(address, timeoutMs),
    timeoutMs: 500,
  };
}

function readProcessEnviron(pid: number): Record<string, string> | undefined {
  try {
    return parseEnvironment(readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0'));
  } catch {
    return undefined;
  }
}

/** `NAME=value` lines (systemd's Environment property, /proc/<pid>/environ) as a record. */
export function parseEnvironment(lines: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of lines) {
    const equals = line.indexOf('=');
    if (equals > 0) env[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return env;
}

const set = (value: string | undefined): value is string => value !== undefined && value !== '';

/** What the display half needs: taken together from one source, so a DISPLAY never pairs with another session's cookie. */
const DISPLAY_NAMES = ['DISPLAY', 'XAUTHORITY', 'WAYLAND_DISPLAY'] as const;

/** Where the session bus socket may be: `$XDG_RUNTIME_DIR/bus`, then `/run/user/<uid>/bus`. */
export function busCandidates(env: Record<string, string | undefined>, deps: Pick<DiscoveryDeps, 'uid' | 'runUserDir'>): { file: string; how: string }[] {
  const candidates: { file: string; how: string }[] = [];
  const runtime = env['XDG_RUNTIME_DIR'];
  if (set(runtime)) candidates.push({ file: path.join(runtime, 'bus'), how: `the socket $XDG_RUNTIME_DIR/bus (${path.join(runtime, 'bus')})` });
  const userRun = path.join(deps.runUserDir, String(deps.uid), 'bus');
  if (!candidates.some((candidate) => candidate.file === userRun)) candidates.push({ file: userRun, how: `the socket ${userRun}` });
  return candidates;
}

/**
 * Fills in DBUS_SESSION_BUS_ADDRESS and DISPLAY (with XAUTHORITY) when they are missing.
 * Values given are never replaced. Never throws: what stays missing is for the caller to explain.
 */
export async function discoverSession(env: Record<string, string | undefined>, deps: DiscoveryDeps = systemDeps()): Promise<SessionDiscovery> {
  const found: Discovered[] = [];
  const result: Record<string, string | undefined> = { ...env };
  const add = (name: string, value: string, how: string): void => {
    if (set(result[name])) return;
    result[name] = value;
    found.push({ name, value, how });
  };
  const needsDisplay = (): boolean => !set(result['DISPLAY']);
  if (set(env['DBUS_SESSION_BUS_ADDRESS']) && !needsDisplay()) return { env: result, found };

  if (!set(result['DBUS_SESSION_BUS_ADDRESS'])) {
    const socket = busCandidates(env, deps).find((candidate) => deps.isSocket(candidate.file));
    if (socket !== undefined) add('DBUS_SESSION_BUS_ADDRESS', `unix:path=${socket.file}`, socket.how);
  }
  let accessibilityBus: string | undefined;
  const address = result['DBUS_SESSION_BUS_ADDRESS'];
  if (set(address)) accessibilityBus = await askSessionBus(address, deps, needsDisplay, add);
  if (needsDisplay()) fromX11Sockets(result, deps, add);
  return { env: result, found, ...(accessibilityBus === undefined ? {} : { accessibilityBus }) };
}

type Add = (name: string, value: string, how: string) => void;

/** The systemd user manager's environment, then the environment of the session's own services, then the AT-SPI bus address. */
async function askSessionBus(address: string, deps: DiscoveryDeps, needsDisplay: () => boolean, add: Add): Promise<string | undefined> {
  let bus: BusLike;
  try {
    bus = await deps.connect(address, deps.timeoutMs);
  } catch {
    return undefined;
  }
  try {
    if (needsDisplay()) {
      const manager = await bus
        .call(
          {
            destination: 'org.freedesktop.systemd1',
            path: '/org/freedesktop/systemd1',
            interface: 'org.freedesktop.DBus.Properties',
            member: 'Get',
            signature: 'ss',
            body: ['org.freedesktop.systemd1.Manager', 'Environment'],
          },
          deps.timeoutMs,
        )
        .then(([variant]) => (variant as { value?: unknown } | undefined)?.value)
        .catch(() => undefined);
      if (Array.isArray(manager)) takeDisplay(parseEnvironment(manager.map(String)), "the systemd user manager's environment", add);
    }
    // Services the bus started (the AT-SPI launcher, the bus daemon itself) carry the session's DISPLAY.
    for (const name of [A11Y_BUS.name, 'org.freedesktop.DBus']) {
      if (!needsDisplay()) break;
      const pid = await bus
        .call(
          {
            destination: 'org.freedesktop.DBus',
            path: '/org/freedesktop/DBus',
            interface: 'org.freedesktop.DBus',
            member: 'GetConnectionUnixProcessID',
            signature: 's',
            body: [name],
          },
          deps.timeoutMs,
        )
        .then(([value]) => Number(value))
        .catch(() => undefined);
      if (pid === undefined || !Number.isInteger(pid) || pid <= 0) continue;
      const environ = deps.readEnviron(pid);
      if (environ !== undefined) takeDisplay(environ, `the environment of ${name} on the session bus (pid ${pid})`, add);
    }
    const [reply] = await bus
      .call({ destination: A11Y_BUS.name, path: A11Y_BUS.path, interface: A11Y_BUS.interface, member: 'GetAddress' }, deps.timeoutMs)
      .catch(() => [undefined]);
    return typeof reply === 'string' && reply !== '' ? reply : undefined;
  } finally {
    bus.close();
  }
}

function takeDisplay(source: Record<string, string>, how: string, add: Add): void {
  if (!set(source['DISPLAY'])) return;
  for (const name of DISPLAY_NAMES) {
    const value = source[name];
    if (set(value)) add(name, value, how);
  }
}

/**
 * The last resort: the X servers listening in /tmp/.X11-unix. One is the user's display; with
 * several there is no telling which, so none is picked and the advice lists them.
 */
function fromX11Sockets(env: Record<string, string | undefined>, deps: DiscoveryDeps, add: Add): void {
  const displays = x11Displays(deps);
  if (displays.length !== 1) return;
  const display = displays[0] as string;
  add('DISPLAY', display, `the only X server socket, ${path.join(deps.x11SocketDir, `X${display.slice(1)}`)}`);
  if (set(env['XAUTHORITY'])) return;
  const home = env['HOME'];
  const cookies = [...(set(home) ? [path.join(home, '.Xauthority')] : []), path.join(deps.runUserDir, String(deps.uid), 'gdm', 'Xauthority')].filter((file) =>
    existsSync(file),
  );
  if (cookies[0] !== undefined) add('XAUTHORITY', cookies[0], 'the X cookie file beside it');
}

/** The displays with a socket in the X socket dir (`:0`, `:1`…). */
export function x11Displays(deps: Pick<DiscoveryDeps, 'x11SocketDir' | 'listDir' | 'isSocket'>): string[] {
  return deps
    .listDir(deps.x11SocketDir)
    .filter((name) => /^X\d+$/.test(name) && deps.isSocket(path.join(deps.x11SocketDir, name)))
    .map((name) => `:${name.slice(1)}`)
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

/**
 * What to add to an MCP client's config when the session could not be found: the exact `env`
 * JSON, with the values this machine suggests (the one X display there is, the user's bus socket).
 */
export function setupAdvice(
  env: Record<string, string | undefined>,
  deps: Pick<DiscoveryDeps, 'uid' | 'runUserDir' | 'x11SocketDir' | 'listDir' | 'isSocket'> = systemDeps(),
): string {
  const displays = x11Displays(deps);
  const display = set(env['DISPLAY']) ? env['DISPLAY'] : (displays[0] ?? ':0');
  const bus = set(env['DBUS_SESSION_BUS_ADDRESS']) ? env['DBUS_SESSION_BUS_ADDRESS'] : `unix:path=${path.join(deps.runUserDir, String(deps.uid), 'bus')}`;
  const json = `"env": {"DISPLAY": ${JSON.stringify(display)}, "DBUS_SESSION_BUS_ADDRESS": ${JSON.stringify(bus)}}`;
  const which = displays.length > 1 ? ` (X servers run on ${displays.join(', ')}: pick yours)` : '';
  return `this is a setup problem: give Deskpilot your desktop's values, as \`echo $DISPLAY $DBUS_SESSION_BUS_ADDRESS\` prints them in a terminal there; in an MCP client's config, add to the server's entry ${json}${which}, then restart the server`;
}

/** Where discovery looked for the session bus, for the message that says none was found. */
export function busPlaces(env: Record<string, string | undefined>, deps: Pick<DiscoveryDeps, 'uid' | 'runUserDir'> = systemDeps()): string {
  return busCandidates(env, deps)
    .map((candidate) => candidate.file)
    .join(' and ');
}
