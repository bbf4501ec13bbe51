/**
 * bench:background's side of the user: a sentinel window they type into through XTest at a
 * steady rate, and watchers of the pointer and the active window. Everything here is bounded
 * and stops with stop().
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Platform, Point } from '../../src/core/platform/types';
import type { Desktop } from '../../test/linux/desktop';
import { waitFor } from '../../test/linux/session';

const execFileAsync = promisify(execFile);
const SENTINEL = fileURLToPath(new URL('./sentinel.py', import.meta.url));
/** The user's key, and how many they type in one burst; bursts follow each other with no pause. */
export const USER_KEY = 'x';
const BURST = 10;
const KEY_DELAY_MS = 60;
const WATCH_MS = 20;

export interface Sentinel {
  child: ChildProcess;
  /** Keys the sentinel received, by keysym name. */
  keys: string[];
  focusOuts: number;
  window: number;
}

export async function startSentinel(desktop: Desktop): Promise<Sentinel> {
  const child = desktop.session.launch('/usr/bin/python3', [SENTINEL], { output: 'pipe' });
  const sentinel: Sentinel = { child, keys: [], focusOuts: 0, window: 0 };
  let ready = false;
  let focused = false;
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'ready') ready = true;
    else if (line === 'focus in') focused = true;
    else if (line === 'focus out') sentinel.focusOuts += 1;
    else if (line.startsWith('key ')) sentinel.keys.push(line.slice(4));
  });
  await waitFor(() => (ready ? true : undefined), 15_000, 'the sentinel window');
  const { stdout } = await execFileAsync('xdotool', ['search', '--sync', '--name', '^Sentinel$'], { env: desktop.session.env, timeout: 10_000 });
  sentinel.window = Number(stdout.trim().split('\n')[0]);
  await execFileAsync('xdotool', ['windowactivate', '--sync', String(sentinel.window)], { env: desktop.session.env, timeout: 10_000 });
  await waitFor(() => (focused ? true : undefined), 10_000, 'the sentinel to have the focus');
  sentinel.focusOuts = 0;
  return sentinel;
}

/** The simulated user: bursts of USER_KEY through XTest (xdotool with no --window), until stopped. */
export function startUser(desktop: Desktop): { sent: () => number; stop: () => Promise<void> } {
  let sent = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      await execFileAsync('xdotool', ['type', '--delay', String(KEY_DELAY_MS), USER_KEY.repeat(BURST)], { env: desktop.session.env, timeout: 10_000 });
      sent += BURST;
    }
  })();
  return {
    sent: () => sent,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

export interface Watcher {
  pointerMoves: number;
  focusChanges: number;
  /** Counts since the last mark, for one action. */
  mark(): { pointerMoves: number; focusChanges: number };
  stop(): void;
}

/** Polls the pointer and the active window every WATCH_MS and counts changes. */
export function watch(platform: Platform, sentinel: Sentinel): Watcher {
  let last: Point | undefined;
  let active: number | undefined = sentinel.window;
  let marked = { pointerMoves: 0, focusChanges: 0 };
  let busy = false;
  const watcher: Watcher = {
    pointerMoves: 0,
    focusChanges: 0,
    mark: () => {
      const since = { pointerMoves: watcher.pointerMoves - marked.pointerMoves, focusChanges: watcher.focusChanges - marked.focusChanges };
      marked = { pointerMoves: watcher.pointerMoves, focusChanges: watcher.focusChanges };
      return since;
    },
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      const point = await platform.input.pointer?.().catch(() => undefined);
      if (point !== undefined && last !== undefined && (point.x !== last.x || point.y !== last.y)) watcher.pointerMoves += 1;
      last = point ?? last;
      const now = await platform.apps.activeWindow?.().catch(() => undefined);
      if (now !== undefined && now !== active) {
        if (active === sentinel.window) watcher.focusChanges += 1;
        active = now;
      }
    })().finally(() => (busy = false));
  }, WATCH_MS);
  return watcher;
}
