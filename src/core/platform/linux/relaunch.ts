/**
 * "Relaunch with accessibility" for a Chromium or Electron app that shows AT-SPI a bare window:
 * the user agreed in the window, so the app is asked to quit the way its close buttons ask
 * (never killed: if it asks about unsaved work, that question is the user's), and once it has
 * exited it is started again with its own arguments, environment and folder, plus
 * --force-renderer-accessibility. ScreenReaderEnabled is never set: on GNOME it starts Orca,
 * and Chrome 151+ ignores it.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { DeskpilotError, ProcessExitedError, StoppedError } from '../../../shared/errors';
import type { RawNode } from '../../ui/ids';
import type { AppListing } from '../types';
import type { AppEntry } from './apps';
import { isChromiumShell, relaunchArgs, relaunchCommand } from './chromium-advice';

/** Close requests before giving up: one per window, for an app with a few windows open. */
const MAX_CLOSES = 8;
/** How long one close request is given to end the process, checked this often. */
const QUIT_WAIT_MS = 3000;
const POLL_MS = 100;

export interface RelaunchDeps {
  app: (pid: number) => Promise<AppEntry>;
  tree: (pid: number) => Promise<RawNode>;
  closeWindow: NonNullable<AppListing['closeWindow']>;
  isAlive: (pid: number) => boolean;
  sleep: (ms: number) => Promise<void>;
  /** Starts the command detached from this process; returns its pid. */
  start: (args: readonly string[], env: Record<string, string>, cwd: string) => number;
  proc?: string;
}

type Relaunch = Required<Pick<AppListing, 'relaunchOffer' | 'relaunchAccessible'>>;

export function createRelaunch(deps: RelaunchDeps): Relaunch {
  const proc = deps.proc ?? '/proc';
  const offer = async (pid: number): Promise<{ app: string; command: string; args: string[] } | undefined> => {
    const app = await deps.app(pid).catch(() => undefined);
    // The bridge first: every other toolkit is answered without reading a tree.
    if (app === undefined || app.bridge.kind !== 'chromium') return undefined;
    if (!isChromiumShell(app.bridge, await deps.tree(pid))) return undefined;
    const args = relaunchArgs(pid, proc);
    const command = relaunchCommand(pid, proc);
    return args === undefined || command === undefined ? undefined : { app: app.name.slice(0, 200), command, args };
  };
  return {
    relaunchOffer: async (pid) => {
      const found = await offer(pid);
      return found === undefined ? undefined : { app: found.app, command: found.command };
    },
    relaunchAccessible: async (pid, signal) => {
      const found = await offer(pid);
      if (found === undefined) throw new DeskpilotError('VALIDATION', `pid ${pid} is not a Chromium or Electron app that hides its content from accessibility`);
      // Read before it quits: afterwards /proc has nothing of it.
      const env = environment(pid, proc) ?? stringEnv(process.env);
      const cwd = folder(pid, proc) ?? homedir();
      await quit(pid, found.app, deps, signal);
      return deps.start(found.args, env, cwd);
    },
  };
}

/** Asks the app's windows to close, one request at a time, until the process is gone; bounded. */
async function quit(pid: number, app: string, deps: RelaunchDeps, signal: AbortSignal | undefined): Promise<void> {
  for (let attempt = 0; attempt < MAX_CLOSES; attempt += 1) {
    if (signal?.aborted === true) throw new StoppedError('stopped before the app was relaunched');
    if (!deps.isAlive(pid)) return;
    const asked = await deps.closeWindow(pid, signal);
    for (let waited = 0; waited < QUIT_WAIT_MS && deps.isAlive(pid); waited += POLL_MS) await deps.sleep(POLL_MS);
    if (!deps.isAlive(pid)) return;
    // No window left to ask, and still running (a tray icon, a dialog of its own): the user decides.
    if (!asked) break;
  }
  if (!deps.isAlive(pid)) throw new ProcessExitedError(pid);
  throw new DeskpilotError(
    'ACTION_FAILED',
    `${app} did not quit (it may be asking about unsaved work); nothing was started. Quit it yourself, then try again.`,
    {
      data: { reason: 'still_running', pid },
    },
  );
}

function environment(pid: number, proc: string): Record<string, string> | undefined {
  try {
    const pairs = readFileSync(`${proc}/${pid}/environ`, 'utf8').split('\0');
    const env: Record<string, string> = {};
    for (const pair of pairs) {
      const at = pair.indexOf('=');
      if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return Object.keys(env).length === 0 ? undefined : env;
  } catch {
    return undefined;
  }
}

function folder(pid: number, proc: string): string | undefined {
  try {
    return readlinkSync(`${proc}/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

function stringEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The real start: its own session, no pipes to this process, so it outlives Deskpilot. */
export function startDetached(args: readonly string[], env: Record<string, string>, cwd: string): number {
  const [program, ...rest] = args;
  if (program === undefined) throw new DeskpilotError('VALIDATION', 'no command to start');
  const child = spawn(program, rest, { env, cwd, detached: true, stdio: 'ignore' });
  child.unref();
  if (child.pid === undefined) throw new DeskpilotError('ACTION_FAILED', `could not start ${program}`);
  return child.pid;
}
