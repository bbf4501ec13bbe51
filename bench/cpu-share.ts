/**
 * Where a read's time goes: CPU the app, the accessibility bus daemon and this process spent
 * while it ran, from /proc (clock ticks, 10 ms each: summed over several runs to mean anything).
 * An app near 100% of the wall time is the bottleneck; this process near it is ours to fix.
 */
import { readFileSync } from 'node:fs';

const TICK_MS = 10;

/** User plus system CPU of a process (all its threads), in ms; 0 when it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The session's accessibility bus daemon among its processes (its command line names the a11y config). */
export function a11yBusPid(pids: readonly number[]): number | undefined {
  return pids.find((pid) => {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return command.startsWith('dbus-daemon') || command.includes('/dbus-daemon') ? command.includes('accessibility') : false;
    } catch {
      return false;
    }
  });
}

export interface CpuShare {
  wallMs: number;
  appMs: number;
  busMs: number;
  selfMs: number;
}

/** Runs `work` and says how much CPU each party spent during it. */
export async function cpuShare(appPid: number, busPid: number | undefined, work: () => Promise<unknown>): Promise<CpuShare> {
  const app = processCpuMs(appPid);
  const bus = busPid === undefined ? 0 : processCpuMs(busPid);
  const self = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(self);
  return {
    wallMs: performance.now() - started,
    appMs: processCpuMs(appPid) - app,
    busMs: busPid === undefined ? 0 : processCpuMs(busPid) - bus,
    selfMs: (used.user + used.system) / 1000,
  };
}

/** "app 82% bus 20% us 35%" of the wall time. */
export function describeShare(share: CpuShare): string {
  const pct = (value: number): string => `${Math.round((100 * value) / Math.max(1, share.wallMs))}%`;
  return `app ${pct(share.appMs)} bus ${pct(share.busMs)} us ${pct(share.selfMs)}`;
}
