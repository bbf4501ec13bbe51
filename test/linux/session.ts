/**
 * A private headless desktop for integration tests and benchmarks: Xvfb, a session D-Bus,
 * the AT-SPI bus and registry, optionally openbox (docs/linux.md shows how to use it by hand).
 * Everything lives under one temp dir, and stop() ends, by PID, only what this session started.
 */
import { spawn, execFile, type ChildProcess, type StdioOptions } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { OwnedProcesses, onProcessExit } from './owned-processes';
import { waitFor } from './wait-for';

export { waitFor };

export interface SessionOptions {
  /** Start openbox, so keystrokes go to the active window rather than the one under the pointer. */
  openbox?: boolean;
  width?: number;
  height?: number;
}

export interface LaunchOptions {
  /** Merged over the session env; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** 'log' (default): stdout and stderr go to a file under the session dir; 'pipe': stdout piped, stderr logged. */
  output?: 'log' | 'pipe' | 'ignore' | 'inherit';
  /** Own process session (default true): terminal Ctrl-C does not reach it, and stop() finds what it forks. */
  detached?: boolean;
}

export interface StopOptions {
  /**
   * This process opened the display itself (nut-js does): Xlib ends a process with exit code 1
   * when its X server goes away, even at exit. So the X server outlives this process by a
   * moment, and a detached watchdog stops it and removes the session folder afterwards.
   */
  keepDisplayUntilExit?: boolean;
}

export interface HeadlessSession {
  readonly env: NodeJS.ProcessEnv;
  readonly display: string;
  readonly sessionBusAddress: string;
  readonly a11yBusAddress: string;
  /** The private temp dir; HOME, XDG_* and TMPDIR are under it. Removed by stop(). */
  readonly directory: string;
  readonly startupMs: number;
  launch(command: string, args?: readonly string[], options?: LaunchOptions): ChildProcess;
  /** Where a launched child's output goes (until stop() removes the dir). */
  logPath(child: ChildProcess): string | undefined;
  /** Every live process this session owns right now, including the ones D-Bus activated. */
  processIds(): number[];
  /** Ends every process this session owns except `keep` (say, the desktop's own), as stop() would. */
  endAllBut(keep: readonly number[]): Promise<void>;
  /**
   * For a desktop that outlives the file that started it (one per test worker): from now on the
   * session is stopped, and its folder removed, when this process ends, however it ends (a
   * SIGKILL too), by a detached watchdog that reads a pipe from this process until it closes.
   * The X server goes last, after this process, since nut-js holds it open (see StopOptions).
   */
  stopWhenProcessEnds(): void;
  /**
   * Starts a new openbox in place of the running one (`--replace`), for a desktop lent to one
   * file after another: the window manager's memory (focus history, the last user time it uses to
   * refuse new windows the focus, placement) starts empty, as on a new desktop. Resolves with the
   * pids of the old and the new one once the new one manages the screen and the old one is gone.
   */
  restartWindowManager(): Promise<{ ended: number; started: number }>;
  stop(options?: StopOptions): Promise<void>;
}

const BUS_LAUNCHER = '/usr/libexec/at-spi-bus-launcher';
const execFileAsync = promisify(execFile);

export function hasHeadlessTools(): boolean {
  return ['Xvfb', 'dbus-daemon', 'dbus-send', 'xdpyinfo'].every((tool) => findExecutable(tool) !== undefined) && existsSync(BUS_LAUNCHER);
}

export async function startSession(options: SessionOptions = {}): Promise<HeadlessSession> {
  const started = performance.now();
  if (!hasHeadlessTools()) throw new Error(`Headless session needs Xvfb, dbus-daemon, dbus-send, xdpyinfo (x11-utils) and ${BUS_LAUNCHER} (at-spi2-core)`);
  const directory = mkdtempSync(path.join(tmpdir(), 'deskpilot-session-'));
  const folders = privateFolders(directory);
  const owned = new OwnedProcesses(process.pid);
  const servers: XServer[] = [];
  const removeFiles = () => {
    for (const server of servers) removeStaleDisplayFiles(server);
    rmSync(directory, { recursive: true, force: true });
  };
  const removeExitHook = onProcessExit(() => {
    owned.killNow();
    removeFiles();
  });
  let stopping: Promise<void> | undefined;
  const stop = (stopOptions: StopOptions = {}) =>
    (stopping ??= (async () => {
      const held = stopOptions.keepDisplayUntilExit ? servers : [];
      for (const server of held) if (server.pid !== undefined) owned.release(server.pid);
      await owned.terminate();
      if (held.length === 0) removeFiles();
      else stopAfterExit(held, directory);
      removeExitHook();
    })());
  let logCount = 0;
  const logFile = (name: string) => path.join(folders.logs, `${String(++logCount).padStart(2, '0')}-${path.basename(name)}.log`);

  try {
    const baseEnv = sessionEnv(folders);
    // The session bus starts while the X server does: the bus needs no display itself, and the
    // services it starts later (the accessibility bus launcher) get DISPLAY from its environment,
    // updated below in the rare case the server took another number than the one picked first.
    const firstDisplay = freeDisplayNumber(100 + Math.floor(Math.random() * 400));
    const bus = startSessionBus({ ...baseEnv, DISPLAY: `:${firstDisplay}` }, folders.run).then((started) => {
      owned.adoptSessionBus(started.pid, started.address);
      return started;
    });
    // Handled here, awaited below: a bus that fails while the X server starts is no unhandled rejection.
    bus.catch(() => undefined);
    const display = await startXServer(baseEnv, options, logFile('Xvfb'), owned, servers, firstDisplay).catch(async (error: unknown) => {
      // Adopted once started, so stop() below ends it too.
      await bus.catch(() => undefined);
      throw error;
    });
    const { address: sessionBusAddress } = await bus;
    const env: NodeJS.ProcessEnv = { ...baseEnv, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: sessionBusAddress };
    if (display !== `:${firstDisplay}`) await setActivationDisplay(env, display);
    const [a11yBusAddress, firstManager] = await Promise.all([
      startAccessibilityBus(env, owned),
      options.openbox ? startOpenbox(env, logFile('openbox'), owned) : Promise.resolve(undefined),
    ]);
    let manager = firstManager;
    /** The list the watchdog of stopWhenProcessEnds stops, kept up to date as processes come and go. */
    let watched: string | undefined;
    const writeWatched = () => {
      if (watched === undefined) return;
      writeFileSync(watched, [...owned.identities()].map(([pid, startTime]) => `${pid} ${startTime}\n`).join(''));
    };

    const logs = new WeakMap<ChildProcess, string>();
    const session: HeadlessSession = {
      env,
      display,
      sessionBusAddress,
      a11yBusAddress,
      directory,
      startupMs: Math.round(performance.now() - started),
      launch(command, args = [], launchOptions = {}) {
        if (stopping) throw new Error('Session already stopped');
        const log = logFile(command);
        const child = spawnWithOutput(command, args, { ...env, ...launchOptions.env }, launchOptions, log);
        if ((launchOptions.output ?? 'log') !== 'ignore' && launchOptions.output !== 'inherit') logs.set(child, log);
        owned.track(child);
        return child;
      },
      logPath: (child) => logs.get(child),
      processIds: () => owned.collect(),
      endAllBut: async (keep) => {
        await owned.terminate(new Set(keep));
        writeWatched();
      },
      stopWhenProcessEnds() {
        removeExitHook();
        watched = path.join(directory, 'watched-processes');
        writeWatched();
        watchUntilExit(watched, servers, directory);
      },
      async restartWindowManager() {
        if (manager === undefined) throw new Error('This session has no window manager to restart');
        const old = manager;
        const exited = old.exitCode !== null || old.signalCode !== null ? Promise.resolve() : once(old, 'exit');
        manager = await startOpenbox(env, logFile('openbox'), owned, await managerCheckWindow(env));
        await withTimeout(exited, 10_000, 'the replaced openbox to exit');
        owned.release(old.pid as number);
        writeWatched();
        return { ended: old.pid as number, started: manager.pid as number };
      },
      stop,
    };
    return session;
  } catch (error) {
    await stop();
    throw error;
  }
}

interface PrivateFolders {
  home: string;
  run: string;
  cache: string;
  config: string;
  data: string;
  state: string;
  temp: string;
  logs: string;
}

function privateFolders(directory: string): PrivateFolders {
  const folders: PrivateFolders = {
    home: path.join(directory, 'home'),
    run: path.join(directory, 'run'),
    cache: path.join(directory, 'cache'),
    config: path.join(directory, 'config'),
    data: path.join(directory, 'data'),
    state: path.join(directory, 'state'),
    temp: path.join(directory, 'tmp'),
    logs: path.join(directory, 'logs'),
  };
  // mkdir's mode is masked by umask; 700 is what XDG_RUNTIME_DIR must be, so it is the only one that matters.
  for (const folder of Object.values(folders)) mkdirSync(folder, { mode: 0o700 });
  return folders;
}

function sessionEnv(folders: PrivateFolders): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: folders.home,
    XDG_RUNTIME_DIR: folders.run,
    XDG_CACHE_HOME: folders.cache,
    XDG_CONFIG_HOME: folders.config,
    XDG_DATA_HOME: folders.data,
    XDG_STATE_HOME: folders.state,
    TMPDIR: folders.temp,
    XDG_SESSION_TYPE: 'x11',
    GDK_BACKEND: 'x11',
    // GTK4 with GL under Xvfb spins the CPU and never registers with AT-SPI.
    GSK_RENDERER: 'cairo',
  };
  // Each of these would either switch accessibility off or point apps at the host's desktop.
  for (const name of [
    'NO_AT_BRIDGE',
    'GTK_A11Y',
    'AT_SPI_BUS_ADDRESS',
    'WAYLAND_DISPLAY',
    'SESSION_MANAGER',
    'XAUTHORITY',
    'DBUS_STARTER_ADDRESS',
    'DBUS_STARTER_BUS_TYPE',
    'DBUS_SESSION_BUS_ADDRESS',
    'DISPLAY',
  ]) {
    delete env[name];
  }
  return env;
}

interface XServer {
  displayNumber: number;
  pid: number | undefined;
}

/** Returns the display; every server tried is added to `servers`, so its files can be cleaned up. */
/** A detached watchdog: once this process is gone, stop the X servers and remove the folder. */
function stopAfterExit(servers: XServer[], directory: string): void {
  const pids = servers.flatMap((server) => (server.pid === undefined ? [] : [server.pid])).join(' ');
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.1; done; kill ${pids} 2>/dev/null; sleep 0.5; rm -rf '${directory}'`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

/**
 * Waits (no polling) for EOF on a pipe whose other end only this process holds, then stops the
 * processes `listFile` names as it reads then (TERM, then KILL for what is left), and removes the
 * folder and the X servers' files. Each line is a pid and its start time: a pid the kernel gave
 * to another process since (pid_max may be 32768) no longer matches and is left alone.
 */
function watchUntilExit(listFile: string, servers: XServer[], directory: string): void {
  // Field 22 of /proc/PID/stat, counted after the command name, which may hold spaces.
  const alive = `alive() { while read -r p t; do [ "$(sed 's/.*) //' /proc/$p/stat 2>/dev/null | cut -d' ' -f20)" = "$t" ] && echo $p; done < '${listFile}'; }`;
  const list = '$(alive)';
  // A display's files go only while its lock still names our server: the number may be taken again.
  const displayFiles = servers.map(
    ({ displayNumber: n, pid }) => `[ "$(tr -d ' ' < /tmp/.X${n}-lock 2>/dev/null)" = "${pid}" ] && rm -f /tmp/.X11-unix/X${n} /tmp/.X${n}-lock`,
  );
  const script = [alive, 'read -r _', `kill ${list} 2>/dev/null`, 'sleep 0.5', `kill -9 ${list} 2>/dev/null`, `rm -rf '${directory}'`, ...displayFiles].join(
    '; ',
  );
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.on('error', () => {});
  watchdog.unref();
  // An unreferenced pipe keeps no event loop alive; the kernel closes it when this process ends.
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
}

/** The first display number from `start` on with neither a socket nor a lock. */
function freeDisplayNumber(start: number): number {
  let candidate = start;
  while (existsSync(`/tmp/.X11-unix/X${candidate}`) || existsSync(`/tmp/.X${candidate}-lock`)) candidate++;
  return candidate;
}

/**
 * Tries `firstCandidate`, then the next free numbers. The caller picks the first at random, which
 * spreads parallel test workers apart; Xvfb's own lock settles any remaining race.
 */
async function startXServer(
  env: NodeJS.ProcessEnv,
  options: SessionOptions,
  log: string,
  owned: OwnedProcesses,
  servers: XServer[],
  firstCandidate: number,
): Promise<string> {
  const screen = `${options.width ?? 1920}x${options.height ?? 1200}x24`;
  let candidate = firstCandidate;
  for (let attempt = 0; attempt < 20; attempt++, candidate++) {
    candidate = freeDisplayNumber(candidate);
    const display = `:${candidate}`;
    // -noreset: without it the server resets whenever its last client leaves, dropping root-window properties.
    const server = spawnWithOutput('Xvfb', [display, '-screen', '0', screen, '-nolisten', 'tcp', '-noreset'], env, {}, log);
    // Unreferenced, so a test that forgets stop() still lets Node exit and the exit hook clean up.
    server.unref();
    owned.track(server);
    servers.push({ displayNumber: candidate, pid: server.pid });
    const ready = await waitFor(
      async () => {
        if (server.exitCode !== null || server.signalCode !== null) return false;
        if (!existsSync(`/tmp/.X11-unix/X${candidate}`)) return undefined;
        await execFileAsync('xdpyinfo', ['-display', display], { env });
        return lockOwner(candidate) === server.pid ? true : undefined;
      },
      10_000,
      `Xvfb on ${display}`,
    );
    if (ready) return display;
  }
  throw new Error(`Xvfb did not start on any of 20 displays; its log ends:\n${readFileSync(log, 'utf8').slice(-2_000)}`);
}

function lockOwner(displayNumber: number): number | undefined {
  try {
    return Number.parseInt(readFileSync(`/tmp/.X${displayNumber}-lock`, 'utf8').trim(), 10);
  } catch {
    return undefined;
  }
}

/** Xvfb cleans these up itself unless it had to be killed. */
function removeStaleDisplayFiles({ displayNumber, pid }: XServer) {
  if (pid === undefined || lockOwner(displayNumber) !== pid) return;
  rmSync(`/tmp/.X11-unix/X${displayNumber}`, { force: true });
  rmSync(`/tmp/.X${displayNumber}-lock`, { force: true });
}

async function startSessionBus(env: NodeJS.ProcessEnv, runDirectory: string) {
  const args = ['--session', `--address=unix:path=${path.join(runDirectory, 'bus')}`, '--fork', '--print-pid=1', '--print-address=1'];
  // The forking parent prints address then pid and exits; the daemon lets go of the pipes.
  const { stdout } = await execFileAsync('dbus-daemon', args, { env, timeout: 10_000 });
  const [address, pidText] = stdout.trim().split('\n');
  const pid = Number.parseInt(pidText ?? '', 10);
  if (!address?.startsWith('unix:') || !Number.isInteger(pid)) throw new Error(`Unexpected dbus-daemon output: ${JSON.stringify(stdout)}`);
  return { address, pid };
}

/** The DISPLAY the session bus gives the services it starts from now on. */
async function setActivationDisplay(env: NodeJS.ProcessEnv, display: string): Promise<void> {
  await execFileAsync(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.UpdateActivationEnvironment',
      `dict:string:string:DISPLAY,${display}`,
    ],
    { env, timeout: 10_000 },
  );
}

/** Sets org.a11y.Status.IsEnabled on the session's bus, as a screen reader (or a setting) would. */
export async function setAccessibilityEnabled(env: NodeJS.ProcessEnv, enabled: boolean): Promise<void> {
  await execFileAsync(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.a11y.Bus',
      '/org/a11y/bus',
      'org.freedesktop.DBus.Properties.Set',
      'string:org.a11y.Status',
      'string:IsEnabled',
      `variant:boolean:${enabled}`,
    ],
    { env, timeout: 10_000 },
  );
}

async function startAccessibilityBus(env: NodeJS.ProcessEnv, owned: OwnedProcesses): Promise<string> {
  // The first call D-Bus-activates at-spi-bus-launcher, which starts the accessibility bus.
  const { stdout } = await execFileAsync('dbus-send', ['--session', '--print-reply', '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus.GetAddress'], {
    env,
    timeout: 10_000,
  });
  const address = /string "([^"]+)"/.exec(stdout)?.[1];
  if (!address?.startsWith('unix:')) throw new Error(`org.a11y.Bus.GetAddress returned ${JSON.stringify(stdout)}`);
  owned.addBus(address);
  await Promise.all([
    // Chromium builds its tree only when a screen reader is said to be on.
    setAccessibilityEnabled(env, true),
    // Activating the registry now, rather than when the first app registers, keeps app start times honest.
    execFileAsync(
      'dbus-send',
      [`--bus=${address}`, '--print-reply', '--dest=org.a11y.atspi.Registry', '/org/a11y/atspi/accessible/root', 'org.freedesktop.DBus.Peer.Ping'],
      { env, timeout: 10_000 },
    ),
  ]);
  return address;
}

/** The window the running window manager names on the root window (EWMH), or undefined. */
async function managerCheckWindow(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const { stdout } = await execFileAsync('xprop', ['-root', '-notype', '_NET_SUPPORTING_WM_CHECK'], { env });
  return /window id # (0x[0-9a-f]+)/i.exec(stdout)?.[1];
}

/** `replacing`: the check window of the openbox this one replaces, which stays on the root until it is taken over. */
async function startOpenbox(env: NodeJS.ProcessEnv, log: string, owned: OwnedProcesses, replacing?: string): Promise<ChildProcess> {
  const replace = replacing === undefined ? [] : ['--replace'];
  const openbox = spawnWithOutput('openbox', ['--sm-disable', ...replace, ...openboxConfig(env)], env, {}, log);
  openbox.unref();
  owned.track(openbox);
  await waitFor(
    async () => {
      if (openbox.exitCode !== null || openbox.signalCode !== null) throw new Error(`openbox exited (${openbox.exitCode ?? openbox.signalCode}); see ${log}`);
      // The desktop count is published after the check window, late in openbox's startup, and the
      // showing-desktop flag last of all: an openbox that replaces another publishes it again, and
      // in 6 of 40 restarts at load 8 it was still missing once the count was there.
      const { stdout } = await execFileAsync('xprop', ['-root', '-notype', '_NET_SUPPORTING_WM_CHECK', '_NET_NUMBER_OF_DESKTOPS', '_NET_SHOWING_DESKTOP'], {
        env,
      });
      const check = /window id # (0x[0-9a-f]+)/i.exec(stdout)?.[1];
      const published = /_NET_NUMBER_OF_DESKTOPS = \d/.test(stdout) && /_NET_SHOWING_DESKTOP = \d/.test(stdout);
      return check !== undefined && check !== replacing && published ? true : undefined;
    },
    10_000,
    'openbox to manage the screen',
  );
  return openbox;
}

async function withTimeout(promise: Promise<unknown>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`Timed out waiting for ${what}`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const OPENBOX_DEFAULTS = '/etc/xdg/openbox/rc.xml';

/**
 * Openbox's defaults with one desktop and no plain-wheel bindings. By default a wheel turn
 * over the bare root window switches desktops (hiding every app) and one over a title bar
 * shades the window: a synthetic scroll that misses its target would break later tests.
 */
function openboxConfig(env: NodeJS.ProcessEnv): string[] {
  if (!existsSync(OPENBOX_DEFAULTS) || env['XDG_CONFIG_HOME'] === undefined) return [];
  const config = readFileSync(OPENBOX_DEFAULTS, 'utf8')
    .replace(/<number>\d+<\/number>/, '<number>1</number>')
    .replace(/<popupTime>\d+<\/popupTime>/, '<popupTime>0</popupTime>')
    .replaceAll(/<mousebind button="(?:Up|Down)" action="Click">[\s\S]*?<\/mousebind>/g, '');
  const file = path.join(env['XDG_CONFIG_HOME'], 'openbox', 'rc.xml');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, config);
  return ['--config-file', file];
}

function spawnWithOutput(command: string, args: readonly string[], env: NodeJS.ProcessEnv, options: LaunchOptions, log: string): ChildProcess {
  if (findExecutable(command, env) === undefined) throw new Error(`Cannot launch ${command}: not found or not executable`);
  const output = options.output ?? 'log';
  const logFd = output === 'log' || output === 'pipe' ? openSync(log, 'a') : undefined;
  const stdio: StdioOptions = output === 'inherit' ? 'inherit' : output === 'ignore' ? 'ignore' : ['ignore', output === 'pipe' ? 'pipe' : logFd, logFd];
  try {
    const child = spawn(command, args, { env, stdio, detached: options.detached ?? true, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
    // An unhandled 'error' (say EACCES) would crash the test runner; callers still see the exit.
    child.on('error', () => {});
    return child;
  } finally {
    if (logFd !== undefined) closeSync(logFd);
  }
}

function findExecutable(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = command.includes('/')
    ? [command]
    : (env['PATH'] ?? '')
        .split(':')
        .filter(Boolean)
        .map((folder) => path.join(folder, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
