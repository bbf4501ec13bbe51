/**
 * The automation host as a process: spawned, watched until it says ready, restarted with
 * backoff when it dies, given up on after a streak of quick crashes, and started again when
 * asked. It knows nothing of what the host is asked (HostClient, host-client.ts, speaks the
 * typed service over the child this supervises). No electron import here (the utilityProcess
 * adapter is host-process.ts), so the integration test can drive the real host through
 * child_process.fork.
 */
import { createI18n, type Translator } from '../../shared/i18n/i18n';
import type { AppStatus } from '../../shared/ipc';
import { defaultTimers, type Timers } from '../../shared/rpc/service';
import type { WireMessage } from '../../shared/rpc/wire';

export { defaultTimers, type Timers };

/** One running host process, as Electron's UtilityProcess or Node's ChildProcess provide it. */
export interface HostChild {
  postMessage(message: WireMessage): void;
  onMessage(listener: (raw: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

export type HostState = AppStatus['host'];

export interface HostSupervisorOptions {
  spawn: () => HostChild;
  /** A message from the current host (never from one that is gone). */
  onMessage: (raw: unknown, child: HostChild) => void;
  /** The current host died (not at shutdown), said in words for the user: `exit code 1`, a spawn error. */
  onExit: (how: string) => void;
  onState: (state: HostState) => void;
  onNotice: (level: 'info' | 'error', text: string) => void;
  /** Notices and the failure are said in the UI's language; English without it. */
  i18n?: Translator;
  /** Host log lines and protocol problems; never settings. */
  onLog: (level: 'info' | 'warn' | 'error', text: string) => void;
  /** First restart delay, doubled per consecutive crash up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A host that ran this long counts as healthy: the next crash restarts at once again. */
  stableMs?: number;
  /** A host that has not said ready by then is killed and restarted. */
  readyTimeoutMs?: number;
  /** After this many crashes in a row (none of them after a stable run), no more restarts until asked. */
  maxCrashes?: number;
  timers?: Timers;
}

export class HostSupervisor {
  private readonly options: HostSupervisorOptions;
  private readonly i18n: Translator;
  private readonly timers: Timers;
  private child: HostChild | undefined;
  private state: HostState = 'starting';
  private crashes = 0;
  /** The user heard of this crash streak, and of the recovery: one notice each, not one per crash. */
  private streakNoticed = false;
  private recoveryNoticed = false;
  /** Why the host was given up on (state `failed`). */
  private failure: string | undefined;
  private shuttingDown = false;
  private readyTimer: unknown;
  private stableTimer: unknown;
  private readonly timersInUse = new Set<unknown>();

  constructor(options: HostSupervisorOptions) {
    this.options = options;
    this.i18n = options.i18n ?? createI18n('en');
    this.timers = options.timers ?? defaultTimers;
  }

  get hostState(): HostState {
    return this.state;
  }

  /** Why the host is `failed`, for the status. */
  get hostProblem(): string | undefined {
    return this.failure;
  }

  start(): void {
    this.shuttingDown = false;
    this.spawn();
  }

  /** Starts the host again after it was given up on (the user asked, or chose to retry). */
  restart(): void {
    if (this.shuttingDown || this.state !== 'failed') return;
    this.crashes = 0;
    this.failure = undefined;
    this.recoveryNoticed = false;
    this.setState('restarting');
    this.spawn();
  }

  /** Kills the host for good (app quit). */
  shutdown(): void {
    this.shuttingDown = true;
    for (const handle of this.timersInUse) this.timers.clearTimeout(handle);
    this.timersInUse.clear();
    this.child?.kill();
    this.child = undefined;
  }

  /** The current host said it is ready: it runs, and a run this long from now ends the crash streak. */
  ready(child: HostChild): void {
    if (this.child !== child) return;
    this.cancel(this.readyTimer);
    this.readyTimer = undefined;
    this.cancel(this.stableTimer);
    this.stableTimer = this.later(this.options.stableMs ?? 30_000, () => {
      // A stable run ends the streak: the next crash is news again.
      this.crashes = 0;
      this.streakNoticed = false;
      this.recoveryNoticed = false;
    });
    const restarted = this.state === 'restarting';
    this.setState('running');
    if (restarted && this.streakNoticed && !this.recoveryNoticed) {
      this.recoveryNoticed = true;
      this.options.onNotice('info', this.t('host.recovered'));
    }
  }

  private setState(state: HostState): void {
    if (this.state === state) return;
    this.state = state;
    this.options.onState(state);
  }

  private later(ms: number, callback: () => void): unknown {
    const handle = this.timers.setTimeout(() => {
      this.timersInUse.delete(handle);
      callback();
    }, ms);
    this.timersInUse.add(handle);
    return handle;
  }

  private cancel(handle: unknown): void {
    if (handle === undefined) return;
    this.timers.clearTimeout(handle);
    this.timersInUse.delete(handle);
  }

  private spawn(): void {
    let child: HostChild;
    try {
      child = this.options.spawn();
    } catch (error) {
      this.exited(undefined, null, error instanceof Error ? error.message : String(error));
      return;
    }
    this.child = child;
    this.readyTimer = this.later(this.options.readyTimeoutMs ?? 20_000, () => {
      this.options.onLog('error', 'the automation host did not start in time; restarting it');
      child.kill();
    });
    child.onMessage((raw) => {
      if (this.child === child) this.options.onMessage(raw, child);
    });
    child.onExit((code) => this.exited(child, code));
  }

  private exited(child: HostChild | undefined, code: number | null, spawnError?: string): void {
    if (child !== undefined && this.child !== child) return;
    this.cancel(this.readyTimer);
    this.cancel(this.stableTimer);
    this.readyTimer = undefined;
    this.stableTimer = undefined;
    this.child = undefined;
    if (this.shuttingDown) return;
    const how = spawnError ?? this.t('host.exitCode', { code: code ?? '?' });
    this.options.onExit(how);
    const delay = Math.min((this.options.initialBackoffMs ?? 500) * 2 ** this.crashes, this.options.maxBackoffMs ?? 30_000);
    this.crashes += 1;
    if (this.crashes >= (this.options.maxCrashes ?? 5)) {
      // Restarting a host that dies at once only fills the chat and the CPU; wait for the user.
      this.failure = this.t('host.gaveUp', { count: this.crashes, how });
      this.setState('failed');
      this.options.onNotice('error', this.failure);
      this.options.onLog('error', `automation host exited (${how}); gave up after ${this.crashes} crashes in a row`);
      return;
    }
    this.setState('restarting');
    if (!this.streakNoticed) {
      this.streakNoticed = true;
      // Neutral, not red: it heals itself and nothing is lost; the give-up above is the real problem.
      this.options.onNotice('info', this.t('host.crashed', { how, delay: formatDelay(delay) }));
    }
    this.options.onLog('error', `automation host exited (${how}); restart ${this.crashes} in ${delay} ms`);
    this.later(delay, () => {
      if (!this.shuttingDown) this.spawn();
    });
  }

  private get t(): Translator['t'] {
    return this.i18n.t;
  }
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
