/**
 * The processes a headless session owns, found through /proc: what it spawned, what
 * D-Bus started on its buses, and their descendants. Matched on pid plus start time, so a
 * reused pid is never signalled; the caller and its ancestors never are.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { waitFor } from './wait-for';

interface ProcessStat {
  pid: number;
  parent: number;
  sessionId: number;
  state: string;
  startTime: string;
}

function readStat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses, so fields are counted from the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0] ?? '', parent: Number(fields[1]), sessionId: Number(fields[3]), startTime: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number, startTime: string): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.startTime === startTime;
}

/**
 * The processes a session owns: what it spawned, the forked session bus, and what D-Bus
 * activated from it. dbus-daemon starts services through a helper that exits, so they are
 * re-parented to init; they keep the bus's process session and DBUS_STARTER_ADDRESS, which
 * is how they are found. Processes are identified by PID plus start time so a reused PID is never hit.
 */
export class OwnedProcesses {
  private readonly roots = new Map<number, string>();
  /** Environment entries naming this session's private bus sockets, which no other process can carry. */
  private readonly starterMarkers: string[] = [];
  private orphanMarker: string | undefined;
  /** Where this session's orphans end up (init or a subreaper): the forked bus was re-parented there. */
  private orphanParent: number | undefined;

  constructor(private readonly self: number) {}

  track(child: ChildProcess) {
    if (child.pid !== undefined) this.adopt(child.pid);
  }

  adopt(pid: number) {
    const stat = readStat(pid);
    if (stat) this.roots.set(pid, stat.startTime);
    return stat;
  }

  /** Stops owning a process, so terminate() leaves it running. */
  release(pid: number) {
    this.roots.delete(pid);
  }

  adoptSessionBus(pid: number, address: string) {
    this.orphanParent = this.adopt(pid)?.parent;
    this.orphanMarker = `DBUS_SESSION_BUS_ADDRESS=${address}\0`;
    this.addBus(address);
  }

  /** Services D-Bus activates carry the activating bus in DBUS_STARTER_ADDRESS. */
  addBus(address: string) {
    this.starterMarkers.push(`DBUS_STARTER_ADDRESS=${address}\0`);
  }

  collect(): number[] {
    const all = readdirSync('/proc')
      .flatMap((entry) => (/^\d+$/.test(entry) ? [readStat(Number(entry))] : []))
      .filter((stat): stat is ProcessStat => stat !== undefined && stat.state !== 'Z');
    const protectedPids = this.ancestorsOfSelf(all);
    const liveRoots = all.filter((stat) => this.roots.get(stat.pid) === stat.startTime);
    const leaders = new Set(liveRoots.filter((stat) => stat.sessionId === stat.pid).map((stat) => stat.pid));
    const owned = new Set(liveRoots.map((stat) => stat.pid));
    for (const stat of all) {
      if (leaders.has(stat.sessionId) || this.carriesMarker(stat)) owned.add(stat.pid);
    }
    // Descendants that started a process session of their own.
    for (let previousSize = -1; owned.size !== previousSize;) {
      previousSize = owned.size;
      for (const stat of all) if (owned.has(stat.parent)) owned.add(stat.pid);
    }
    return [...owned].filter((pid) => !protectedPids.has(pid));
  }

  /**
   * Activated services, and orphans of launched apps (a shell's `app &`). A shell the user
   * pointed at this session by hand also carries the bus address but is no orphan, so it is left alone.
   */
  private carriesMarker(stat: ProcessStat): boolean {
    if (this.starterMarkers.length === 0) return false;
    const environ = readProcFile(stat.pid, 'environ');
    if (environ === undefined) return false;
    if (this.starterMarkers.some((marker) => environ.includes(marker))) return true;
    return stat.parent === this.orphanParent && this.orphanMarker !== undefined && environ.includes(this.orphanMarker);
  }

  /** Ends every owned process but the ones in `keep`: SIGTERM, then SIGKILL for what stays. */
  async terminate(keep: ReadonlySet<number> = new Set()) {
    const targets = this.snapshot(keep);
    signalAll(targets, 'SIGTERM');
    const survivors = await this.waitGone(targets, 2_000);
    signalAll(survivors, 'SIGKILL');
    await this.waitGone(survivors, 2_000);
    // Anything spawned during shutdown (a crash handler, a respawn).
    const late = this.snapshot(keep);
    signalAll(late, 'SIGKILL');
    await this.waitGone(late, 1_000);
  }

  /** Every owned process now, by pid and start time (so a pid taken again later is told apart). */
  identities(): Map<number, string> {
    return this.snapshot();
  }

  /** For process exit, where nothing asynchronous runs any more. */
  killNow() {
    signalAll(this.snapshot(), 'SIGKILL');
  }

  private snapshot(keep: ReadonlySet<number> = new Set()): Map<number, string> {
    return new Map(
      this.collect().flatMap((pid) => {
        if (keep.has(pid)) return [];
        const stat = readStat(pid);
        return stat ? [[pid, stat.startTime] as const] : [];
      }),
    );
  }

  private async waitGone(targets: Map<number, string>, timeoutMs: number): Promise<Map<number, string>> {
    const alive = () => new Map([...targets].filter(([pid, startTime]) => isAlive(pid, startTime)));
    try {
      await waitFor(() => (alive().size === 0 ? true : undefined), timeoutMs, 'session processes to exit');
    } catch {
      // The caller escalates to SIGKILL.
    }
    return alive();
  }

  private ancestorsOfSelf(all: ProcessStat[]): Set<number> {
    const parents = new Map(all.map((stat) => [stat.pid, stat.parent]));
    const ancestors = new Set<number>();
    for (let pid: number | undefined = this.self; pid !== undefined && pid > 0 && !ancestors.has(pid); pid = parents.get(pid)) ancestors.add(pid);
    return ancestors;
  }
}

function signalAll(targets: Map<number, string>, signal: NodeJS.Signals) {
  for (const [pid, startTime] of targets) {
    if (!isAlive(pid, startTime)) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone between the check and the signal.
    }
  }
}

function readProcFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'latin1');
  } catch {
    return undefined;
  }
}

const exitHooks = new Set<() => void>();

/** Last-resort cleanup when a test runner exits without calling stop(). */
export function onProcessExit(hook: () => void): () => void {
  if (exitHooks.size === 0) process.on('exit', runExitHooks);
  exitHooks.add(hook);
  return () => {
    exitHooks.delete(hook);
    if (exitHooks.size === 0) process.off('exit', runExitHooks);
  };
}

function runExitHooks() {
  for (const hook of exitHooks) hook();
}
