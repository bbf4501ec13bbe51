/**
 * Main's typed side of the automation host: HOST_SERVICE's methods and notifications as calls,
 * its events as callbacks, over whichever host process HostSupervisor keeps alive. It hands a
 * new host the settings and the last conversation before anything else, ends the asks a dead
 * host was running, and rejects what it can no longer answer with a retryable typed error.
 */
import type { AgentEvent } from '../../shared/agent-events';
import { DeskpilotError, StoppedError, hasErrorCode } from '../../shared/errors';
import type { HistoryMessage, HostSettings } from '../../shared/host-protocol';
import { HOST_SERVICE, type HostService } from '../../shared/host-service';
import { createI18n, type Translator } from '../../shared/i18n/i18n';
import type { DocsStatus } from '../../shared/ipc';
import { RpcClient, type RequestOptions } from '../../shared/rpc/client';
import type { MethodName, NotificationIn, NotificationName, ParamsIn, ProgressOut, ResultOut } from '../../shared/rpc/service';
import type { WorkflowEvent } from '../../shared/workflow-ipc';
import { FRONTMOST_TIMEOUT_MS } from '../window/target';
import { HostSupervisor, type HostChild, type HostState, type HostSupervisorOptions } from './host-supervisor';

/** Suggestions are a nicety: a busy host's answer after this long is not waited for. */
const SUGGEST_TIMEOUT_MS = 2000;

export interface HostClientOptions extends Omit<HostSupervisorOptions, 'onMessage' | 'onExit'> {
  /** The provider settings (with the decrypted key) sent to every new host. */
  settings: () => HostSettings;
  onAgentEvent: (event: AgentEvent) => void;
  /** The documentation index changed or is being built. */
  onDocs?: (status: DocsStatus) => void;
  /** A workflow run's progress, approval or report, for the Workflows view. */
  onWorkflow?: (event: WorkflowEvent) => void;
}

export class HostClient {
  private readonly options: HostClientOptions;
  private readonly i18n: Translator;
  private readonly supervisor: HostSupervisor;
  private readonly rpc: RpcClient<HostService>;
  private history: HistoryMessage[] = [];
  private readonly runningAsks = new Set<string>();
  /** The host whose message is being read (the supervisor passes only the current one's). */
  private speaking: HostChild | undefined;

  constructor(options: HostClientOptions) {
    this.options = options;
    this.i18n = options.i18n ?? createI18n('en');
    this.rpc = new RpcClient(HOST_SERVICE, {
      ...(options.timers === undefined ? {} : { timers: options.timers }),
      onProblem: (problem) => options.onLog('error', `${problem} from the automation host`),
      events: {
        // The one event that changes the line: the host that said it connects, and hears the settings first.
        ready: () => {
          const child = this.speaking;
          if (child === undefined || this.rpc.connected) return;
          this.supervisor.ready(child);
          this.connect(child);
        },
        agent: (event) => {
          if (event.type === 'ask') this.runningAsks.add(event.askId);
          if (event.type === 'done' || event.type === 'error') this.runningAsks.delete(event.askId);
          options.onAgentEvent(event);
        },
        history: ({ messages }) => (this.history = messages),
        log: ({ level, text }) => options.onLog(level, text),
        docs: (status) => options.onDocs?.(status),
        workflow: (event) => options.onWorkflow?.(event),
        mcp: (notice) => {
          const { t } = this.i18n;
          // A start is news only the first time; a stop or a failure is a problem to see.
          const text =
            notice.kind === 'started'
              ? t('host.mcpStarted', { server: notice.server, count: notice.tools })
              : notice.kind === 'stopped'
                ? t('host.mcpStopped', { server: notice.server })
                : notice.kind === 'limited'
                  ? `${notice.server}: ${notice.problem}`
                  : t('host.mcpFailed', { server: notice.server, problem: notice.problem });
          options.onNotice(notice.kind === 'started' ? 'info' : 'error', text);
        },
      },
    });
    this.supervisor = new HostSupervisor({
      ...options,
      onMessage: (raw, child) => {
        this.speaking = child;
        this.rpc.receive(raw);
      },
      onExit: (how) => this.hostDied(how),
    });
  }

  get hostState(): HostState {
    return this.supervisor.hostState;
  }

  get hostProblem(): string | undefined {
    return this.supervisor.hostProblem;
  }

  start(): void {
    this.supervisor.start();
  }

  restart(): void {
    this.supervisor.restart();
  }

  /** Kills the host for good (app quit). */
  shutdown(): void {
    this.rpc.disconnect(new DeskpilotError('INTERNAL', 'Deskpilot is quitting'));
    this.supervisor.shutdown();
  }

  /** Any of the host's methods, its reply checked by the method's schema. Queued while the host (re)starts; rejected if it dies first. */
  request<M extends MethodName<HostService>>(
    method: M,
    params: ParamsIn<HostService, M>,
    options?: RequestOptions<ProgressOut<HostService, M>>,
  ): Promise<ResultOut<HostService, M>> {
    return this.rpc.request(method, params, options);
  }

  /**
   * A one-way request. Stops and approvals only mean something to the host that is running
   * now, so they are dropped while none is; the rest wait for the next one.
   */
  notify<N extends NotificationName<HostService>>(method: N, params: NotificationIn<HostService, N>): void {
    if (method === 'clear') this.history = [];
    // A stop or clear covers the asks waiting for the next host too, or they would run after it.
    if (!this.rpc.connected && (method === 'stop' || method === 'clear')) this.dropQueuedAsks(method === 'stop');
    this.rpc.notify(method, params, { whenDisconnected: method === 'stop' || method === 'approve' ? 'drop' : 'queue' });
  }

  /** Queues an ask about the app `pid`; resolves with its id once the host took it. */
  ask(text: string, pid: number): Promise<ResultOut<HostService, 'ask'>> {
    // A new question is the natural moment to try a host that was given up on once more.
    this.restart();
    return this.request('ask', { text, pid });
  }

  /**
   * The app in front right now, as the host's platform sees it; null when the host has not
   * answered within `timeoutMs` (a hung app, a host still starting). The request is cancelled
   * then, so a late reply, or a host that never comes, leaves nothing behind.
   */
  frontmost(timeoutMs = FRONTMOST_TIMEOUT_MS): Promise<ResultOut<HostService, 'frontmost'>> {
    return orOnTimeout(this.request('frontmost', {}, { timeoutMs }), null);
  }

  /** What the empty chat may suggest for the app `pid`; nothing special when the host is slow to say. */
  suggest(pid: number): Promise<ResultOut<HostService, 'suggest'>> {
    return orOnTimeout(this.request('suggest', { pid }, { timeoutMs: SUGGEST_TIMEOUT_MS }), []);
  }

  /** The documentation index as the host has it; waits for a host that is starting. */
  docsStatus(): Promise<ResultOut<HostService, 'docsStatus'>> {
    return this.request('docsStatus', {});
  }

  /** Call after the settings changed. */
  settingsChanged(): void {
    if (this.rpc.connected) this.rpc.notify('settings', { settings: this.options.settings() });
  }

  /** A new host hears the settings and the conversation first, then what waited for it. */
  private connect(child: HostChild): void {
    this.rpc.connect(
      (message) => child.postMessage(message),
      () => {
        this.rpc.notify('settings', { settings: this.options.settings() });
        if (this.history.length > 0) this.rpc.notify('restore', { messages: this.history });
      },
    );
  }

  /** The host is gone: the asks it was running can never finish, and no reply will come. */
  private hostDied(how: string): void {
    for (const askId of this.runningAsks) {
      this.options.onAgentEvent({
        type: 'error',
        askId,
        error: { code: 'INTERNAL', message: this.i18n.t('host.diedDuringAsk', { how }), isRetryable: true, data: { reason: 'host_exited' } },
      });
    }
    this.runningAsks.clear();
    this.speaking = undefined;
    this.rpc.disconnect(new DeskpilotError('INTERNAL', `The automation host stopped (${how}); try again in a moment.`, { isRetryable: true }));
  }

  /**
   * Takes the asks no host has seen out of the queue and rejects their callers. After a stop the
   * chat shows each as a question that was stopped (a clear empties the chat, so nothing shows).
   */
  private dropQueuedAsks(showStopped: boolean): void {
    const dropped = this.rpc.dropQueued('ask', new StoppedError('Stopped before it started.', { data: { reason: 'stopped' } }));
    if (!showStopped) return;
    for (const { id, params } of dropped) {
      // The host numbers the asks it takes; these never reached one, so they get an id of their own.
      const askId = `queued-${id}`;
      this.options.onAgentEvent({ type: 'ask', askId, text: params.text, pid: params.pid });
      this.options.onAgentEvent({ type: 'done', askId, answer: '', stopped: true, reason: 'stopped' });
    }
  }
}

/** A call whose answer is a nicety: after its timeout, `fallback` instead; other failures stay failures. */
async function orOnTimeout<T, F>(call: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await call;
  } catch (error) {
    if (hasErrorCode(error, 'TIMEOUT')) return fallback;
    throw error;
  }
}
