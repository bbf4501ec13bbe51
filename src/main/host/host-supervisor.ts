/**
 * Main's side of the automation host: starts it, talks to it, and restarts it with backoff
 * when it dies. No electron import here (the utilityProcess adapter is host-process.ts), so
 * the integration test can drive the real host through child_process.fork.
 */
import type { AgentEvent } from '../../shared/agent-events';
import { DeskpilotError, StoppedError, deserializeError } from '../../shared/errors';
import { parseHostMessage, type HistoryMessage, type HostMessage, type HostReplies, type HostRequest, type HostSettings } from '../../shared/host-protocol';
import { createI18n, type Translator } from '../../shared/i18n/i18n';
import type { AppStatus, DocsStatus } from '../../shared/ipc';
import type { WorkflowEvent } from '../../shared/workflow-ipc';
import { FRONTMOST_TIMEOUT_MS } from '../window/target';

/** One running host process, as Electron's UtilityProcess or Node's ChildProcess provide it. */
export interface HostChild {
  postMessage(message: HostRequest): void;
  onMessage(listener: (raw: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

/** Suggestions are a nicety: a busy host's answer after this long is not waited for. */
const SUGGEST_TIMEOUT_MS = 2000;

export type HostState = AppStatus['host'];

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface HostSupervisorOptions {
  spawn: () => HostChild;
  /** The provider settings (with the decrypted key) sent to every new host. */
  settings: () => HostSettings;
  onAgentEvent: (event: AgentEvent) => void;
  onState: (state: HostState) => void;
  onNotice: (level: 'info' | 'error', text: string) => void;
  /** Notices and the failure are said in the UI's language; English without it. */
  i18n?: Translator;
  /** Host log lines and protocol problems; never settings. */
  onLog: (level: 'info' | 'warn' | 'error', text: string) => void;
  /** The documentation index changed or is being built. */
  onDocs?: (status: DocsStatus) => void;
  /** A workflow run's progress, approval or report, for the Workflows view. */
  onWorkflow?: (event: WorkflowEvent) => void;
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

type ReplyRequest = Extract<HostRequest, { requestId: number }>;
type WorkflowReplyType = Extract<ReplyRequest['type'], `workflow${string}`>;

interface PendingReply {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** Node's own timers; tests pass manual ones. */
export const defaultTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class HostSupervisor {
  private readonly options: HostSupervisorOptions;
  private readonly i18n: Translator;
  private readonly timers: Timers;
  private child: HostChild | undefined;
  private ready = false;
  private state: HostState = 'starting';
  private history: HistoryMessage[] = [];
  private readonly queue: HostRequest[] = [];
  private readonly pending = new Map<number, PendingReply>();
  private readonly runningAsks = new Set<string>();
  private nextRequestId = 1;
  private crashes = 0;
  /** The user heard of this crash streak, and of the recovery: one notice each, not one per crash. */
  private streakNoticed = false;
  private recoveryNoticed = false;
  /** Why the host was given up on (state `failed`). */
  private failure: string | undefined;
  private shuttingDown = false;
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
    this.failPending(new DeskpilotError('INTERNAL', 'Deskpilot is quitting'));
    this.child?.kill();
    this.child = undefined;
    this.ready = false;
  }

  /** Queues an ask about the app `pid`; resolves with its id once the host took it. */
  ask(text: string, pid: number): Promise<HostReplies['ask']> {
    // A new question is the natural moment to try a host that was given up on once more.
    this.restart();
    return this.request((requestId) => ({ type: 'ask', requestId, text, pid })) as Promise<HostReplies['ask']>;
  }

  /**
   * The app in front right now, as the host's platform sees it; null when the host has not
   * answered within `timeoutMs` (a hung app, a host still starting). The request is forgotten
   * then, so a late reply, or a host that never comes, leaves nothing behind.
   */
  frontmost(timeoutMs = FRONTMOST_TIMEOUT_MS): Promise<HostReplies['frontmost']> {
    return this.request((requestId) => ({ type: 'frontmost', requestId }), { ms: timeoutMs, value: null }) as Promise<HostReplies['frontmost']>;
  }

  /** The documentation index as the host has it; waits for a host that is starting. */
  /** What the empty chat may suggest for the app `pid`; nothing special when the host is slow to say. */
  suggest(pid: number): Promise<HostReplies['suggest']> {
    return this.request((requestId) => ({ type: 'suggest', requestId, pid }), { ms: SUGGEST_TIMEOUT_MS, value: [] }) as Promise<HostReplies['suggest']>;
  }

  docsStatus(): Promise<HostReplies['docsStatus']> {
    return this.request((requestId) => ({ type: 'docsStatus', requestId })) as Promise<HostReplies['docsStatus']>;
  }

  /** One of the Workflows view's requests (list, run, draft, save), replied like the others. */
  workflow<Type extends WorkflowReplyType>(request: { type: Type } & Omit<Extract<ReplyRequest, { type: Type }>, 'requestId'>): Promise<HostReplies[Type]> {
    return this.request((requestId) => ({ ...request, requestId }) as ReplyRequest) as Promise<HostReplies[Type]>;
  }

  /** A request with a reply. Queued while the host (re)starts; rejected if the host dies first. */
  private request(build: (requestId: number) => ReplyRequest, timeout?: { ms: number; value: unknown }): Promise<unknown> {
    const requestId = this.nextRequestId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer =
        timeout === undefined
          ? undefined
          : this.later(timeout.ms, () => {
              this.pending.delete(requestId);
              this.removeQueued((message) => 'requestId' in message && message.requestId === requestId);
              resolve(timeout.value);
            });
      this.pending.set(requestId, {
        resolve: (value) => {
          this.cancel(timer);
          resolve(value);
        },
        reject: (error) => {
          this.cancel(timer);
          reject(error);
        },
      });
      this.send(build(requestId));
    });
  }

  private removeQueued(test: (message: HostRequest) => boolean): void {
    this.queue.splice(0, this.queue.length, ...this.queue.filter((message) => !test(message)));
  }

  /**
   * A one-way request. Stops and approvals only mean something to the host that is running
   * now, so they are dropped while none is; the rest wait for the next one.
   */
  send(message: HostRequest): void {
    if (message.type === 'clear') this.history = [];
    if (this.ready && this.child !== undefined) {
      this.child.postMessage(message);
      return;
    }
    // A stop or clear covers the asks waiting for the next host too, or they would run after it.
    if (message.type === 'stop' || message.type === 'clear') this.dropQueuedAsks(message.type === 'stop');
    if (message.type !== 'stop' && message.type !== 'approve') this.queue.push(message);
  }

  /**
   * Takes the asks no host has seen out of the queue and rejects their callers. After a stop the
   * chat shows each as a question that was stopped (a clear empties the chat, so nothing shows).
   */
  private dropQueuedAsks(showStopped: boolean): void {
    const asks = this.queue.filter((message) => message.type === 'ask');
    if (asks.length === 0) return;
    this.removeQueued((message) => message.type === 'ask');
    for (const ask of asks) {
      // The host numbers the asks it takes; these never reached one, so they get an id of their own.
      const askId = `queued-${ask.requestId}`;
      if (showStopped) {
        this.options.onAgentEvent({ type: 'ask', askId, text: ask.text, pid: ask.pid });
        this.options.onAgentEvent({ type: 'done', askId, answer: '', stopped: true, reason: 'stopped' });
      }
      this.pending.get(ask.requestId)?.reject(new StoppedError('Stopped before it started.', { data: { reason: 'stopped' } }));
      this.pending.delete(ask.requestId);
    }
  }

  /** Call after the settings changed. */
  settingsChanged(): void {
    if (this.ready) this.child?.postMessage({ type: 'settings', settings: this.options.settings() });
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
    this.ready = false;
    let readyTimer: unknown = this.later(this.options.readyTimeoutMs ?? 20_000, () => {
      this.options.onLog('error', 'the automation host did not start in time; restarting it');
      child.kill();
    });
    let stableTimer: unknown;
    child.onMessage((raw) => {
      if (this.child !== child) return;
      const parsed = parseHostMessage(raw);
      if (!parsed.ok) {
        this.options.onLog('error', `ignored an invalid message from the automation host: ${parsed.problem}`);
        return;
      }
      if (parsed.message.type === 'ready') {
        this.cancel(readyTimer);
        readyTimer = undefined;
        stableTimer = this.later(this.options.stableMs ?? 30_000, () => {
          // A stable run ends the streak: the next crash is news again.
          this.crashes = 0;
          this.streakNoticed = false;
          this.recoveryNoticed = false;
        });
      }
      this.receive(parsed.message, child);
    });
    child.onExit((code) => {
      this.cancel(readyTimer);
      this.cancel(stableTimer);
      this.exited(child, code);
    });
  }

  private receive(message: HostMessage, child: HostChild): void {
    switch (message.type) {
      case 'ready': {
        this.ready = true;
        const restarted = this.state === 'restarting';
        this.setState('running');
        child.postMessage({ type: 'settings', settings: this.options.settings() });
        if (this.history.length > 0) child.postMessage({ type: 'restore', messages: this.history });
        for (const queued of this.queue.splice(0)) child.postMessage(queued);
        if (restarted && this.streakNoticed && !this.recoveryNoticed) {
          this.recoveryNoticed = true;
          this.options.onNotice('info', this.t('host.recovered'));
        }
        return;
      }
      case 'agent':
        if (message.event.type === 'ask') this.runningAsks.add(message.event.askId);
        if (message.event.type === 'done' || message.event.type === 'error') this.runningAsks.delete(message.event.askId);
        this.options.onAgentEvent(message.event);
        return;
      case 'history':
        this.history = message.messages;
        return;
      case 'reply': {
        const pending = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        if (pending === undefined) return;
        if (message.ok) pending.resolve(message.value);
        else pending.reject(deserializeError(message.error));
        return;
      }
      case 'log':
        this.options.onLog(message.level, message.text);
        return;
      case 'docs':
        this.options.onDocs?.(message.status);
        return;
      case 'workflow':
        this.options.onWorkflow?.(message.event);
        return;
      case 'mcp': {
        const { notice } = message;
        // A start is news only the first time; a stop or a failure is a problem to see.
        const text =
          notice.kind === 'started'
            ? this.t('host.mcpStarted', { server: notice.server, count: notice.tools })
            : notice.kind === 'stopped'
              ? this.t('host.mcpStopped', { server: notice.server })
              : notice.kind === 'limited'
                ? `${notice.server}: ${notice.problem}`
                : this.t('host.mcpFailed', { server: notice.server, problem: notice.problem });
        this.options.onNotice(notice.kind === 'started' ? 'info' : 'error', text);
        return;
      }
    }
  }

  private exited(child: HostChild | undefined, code: number | null, spawnError?: string): void {
    if (child !== undefined && this.child !== child) return;
    this.child = undefined;
    this.ready = false;
    if (this.shuttingDown) return;
    const how = spawnError ?? this.t('host.exitCode', { code: code ?? '?' });
    // The asks it was running can never finish: end each with an error the user can retry.
    for (const askId of this.runningAsks) {
      this.options.onAgentEvent({
        type: 'error',
        askId,
        error: {
          code: 'INTERNAL',
          message: this.t('host.diedDuringAsk', { how }),
          isRetryable: true,
          data: { reason: 'host_exited' },
        },
      });
    }
    this.runningAsks.clear();
    this.failPending(new DeskpilotError('INTERNAL', `The automation host stopped (${how}); try again in a moment.`, { isRetryable: true }));
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

  private failPending(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    // Replies to queued requests could never come from a host that has not seen them.
    this.removeQueued((message) => 'requestId' in message);
  }
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
