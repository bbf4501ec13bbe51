import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../shared/agent-events';
import type { HostSettings } from '../../shared/host-protocol';
import { HOST_SETTINGS_DEFAULTS } from '../../shared/settings-derive';
import type { WireMessage } from '../../shared/rpc/wire';
import { HostClient } from './host-client';
import type { HostChild, HostState, Timers } from './host-supervisor';

/** A utilityProcess double: records what main sends and lets the test speak for the host. */
class FakeHost implements HostChild {
  readonly received: WireMessage[] = [];
  killed = false;
  private messageListener: ((raw: unknown) => void) | undefined;
  private exitListener: ((code: number | null) => void) | undefined;

  postMessage(message: WireMessage): void {
    this.received.push(message);
  }
  onMessage(listener: (raw: unknown) => void): void {
    this.messageListener = listener;
  }
  onExit(listener: (code: number | null) => void): void {
    this.exitListener = listener;
  }
  kill(): void {
    this.killed = true;
    this.exit(null);
  }
  say(message: unknown): void {
    this.messageListener?.(message);
  }
  /** An event of the host service, as the host's RpcServer sends it. */
  event(event: string, payload: unknown): void {
    this.say({ rpc: 'event', event, payload });
  }
  ready(pid: number): void {
    this.event('ready', { pid });
  }
  reply(id: number, value: unknown): void {
    this.say({ rpc: 'result', id, value });
  }
  /** The method or notification names main sent, in order. */
  methods(): string[] {
    return this.received.map((message) => ('method' in message ? message.method : message.rpc));
  }
  exit(code: number | null): void {
    this.exitListener?.(code);
  }
}

/** Timers the test advances by hand. */
class FakeTimers implements Timers {
  private now = 0;
  private readonly queue = new Map<number, { at: number; callback: () => void }>();
  private next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.queue.set(id, { at: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.queue.delete(handle as number);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, timer] of [...this.queue].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.now) continue;
      this.queue.delete(id);
      timer.callback();
    }
  }
}

const DOCS_OFF = {
  ...HOST_SETTINGS_DEFAULTS,
  embeddingModel: '',
  language: 'en' as const,
  answerLanguage: 'auto' as const,
  mcpServers: {},
  toolAllowances: [],
  vision: 'auto' as const,
  docs: { folders: [], appHelp: true, manPages: true, userFolders: true },
};
const SETTINGS: HostSettings = { ...DOCS_OFF, preset: 'openai', baseUrl: '', model: '', headers: '', apiKey: 'sk-secret', approvalPolicy: 'confirm-risky' };

let hosts: FakeHost[];
let timers: FakeTimers;
let events: AgentEvent[];
let states: HostState[];
let notices: string[];
let logs: string[];
let workflowEvents: unknown[];
let supervisor: HostClient;

function current(): FakeHost {
  const host = hosts.at(-1);
  if (host === undefined) throw new Error('no host spawned');
  return host;
}

beforeEach(() => {
  hosts = [];
  timers = new FakeTimers();
  events = [];
  states = [];
  notices = [];
  logs = [];
  workflowEvents = [];
  supervisor = new HostClient({
    onWorkflow: (event) => workflowEvents.push(event),
    spawn: () => {
      const host = new FakeHost();
      hosts.push(host);
      return host;
    },
    settings: () => SETTINGS,
    onAgentEvent: (event) => events.push(event),
    onState: (state) => states.push(state),
    onNotice: (_level, text) => notices.push(text),
    onLog: (_level, text) => logs.push(text),
    initialBackoffMs: 500,
    maxBackoffMs: 4000,
    stableMs: 30_000,
    readyTimeoutMs: 10_000,
    timers,
  });
  supervisor.start();
});

describe('host supervisor', () => {
  it("relays the Workflows view's requests with reply ids, and passes a run's events on", async () => {
    current().ready(555);
    const listed = supervisor.request('workflowList', {});
    const run = supervisor.request('workflowRun', { name: 'weekly', vars: { name: 'Ada' }, pid: 4242 });
    expect(current().received.slice(1)).toEqual([
      { rpc: 'request', id: 1, method: 'workflowList', params: {} },
      { rpc: 'request', id: 2, method: 'workflowRun', params: { name: 'weekly', vars: { name: 'Ada' }, pid: 4242 } },
    ]);
    current().reply(2, { runId: 'run-1' });
    current().say({ rpc: 'error', id: 1, error: { code: 'VALIDATION', message: 'bad folder', isRetryable: false } });
    expect(await run).toEqual({ runId: 'run-1' });
    await expect(listed).rejects.toMatchObject({ code: 'VALIDATION' });
    const step = { type: 'step', runId: 'run-1', step: { step: 1, action: 'click', status: 'ok' } };
    current().event('workflow', step);
    current().event('workflow', { type: 'explode', runId: 'run-1' });
    expect(workflowEvents).toEqual([step]);
    expect(logs.at(-1)).toMatch(/ignored an invalid message/);
  });

  it('sends the settings once the host is ready, and queued requests after them', async () => {
    const asked = supervisor.ask('hello', 4242);
    expect(current().received).toEqual([]);
    current().ready(555);
    expect(current().received).toEqual([
      { rpc: 'notify', method: 'settings', params: { settings: SETTINGS } },
      { rpc: 'request', id: 1, method: 'ask', params: { text: 'hello', pid: 4242 } },
    ]);
    expect(states).toEqual(['running']);
    current().reply(1, { askId: 'h-ask-1' });
    expect(await asked).toEqual({ askId: 'h-ask-1' });
  });

  it('restarts a dead host with growing delays and restores the last conversation', () => {
    current().ready(555);
    current().event('history', {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ],
    });
    current().exit(1);
    expect(states).toEqual(['running', 'restarting']);
    expect(notices[0]).toMatch(/stopped unexpectedly \(exit code 1\)\. Restarting it in 500 ms/);
    expect(hosts).toHaveLength(1);
    timers.advance(499);
    expect(hosts).toHaveLength(1);
    timers.advance(1);
    expect(hosts).toHaveLength(2);

    current().exit(1); // dies again before it is ready
    timers.advance(999);
    expect(hosts).toHaveLength(2);
    timers.advance(1);
    expect(hosts).toHaveLength(3);

    current().ready(556);
    expect(current().received).toEqual([
      { rpc: 'notify', method: 'settings', params: { settings: SETTINGS } },
      {
        rpc: 'notify',
        method: 'restore',
        params: {
          messages: [
            { role: 'user', content: 'q' },
            { role: 'assistant', content: 'a' },
          ],
        },
      },
    ]);
    expect(states.at(-1)).toBe('running');
    expect(notices.at(-1)).toMatch(/running again/);
  });

  it('caps the delay and resets it after the host ran stably', () => {
    for (let crash = 0; crash < 4; crash += 1) {
      current().exit(1);
      timers.advance(4000);
    }
    expect(logs.at(-1)).toMatch(/in 4000 ms/);
    current().ready(1);
    timers.advance(30_000);
    current().exit(1);
    expect(logs.at(-1)).toMatch(/in 500 ms/);
  });

  it('notices a crash streak once and its recovery once, however often the host dies in it', () => {
    for (let crash = 0; crash < 3; crash += 1) {
      current().ready(1);
      current().exit(1);
      timers.advance(4000);
    }
    current().ready(1);
    expect(notices).toEqual([expect.stringMatching(/stopped unexpectedly/), expect.stringMatching(/running again/)]);
    // A stable run ends the streak, so the next crash is news again.
    timers.advance(30_000);
    current().exit(1);
    expect(notices).toHaveLength(3);
  });

  it('gives up after 5 quick crashes in a row, says so once, and tries again on the next ask', async () => {
    for (let crash = 0; crash < 5; crash += 1) {
      current().exit(1);
      timers.advance(4000);
    }
    expect(hosts).toHaveLength(5);
    expect(states.at(-1)).toBe('failed');
    expect(supervisor.hostState).toBe('failed');
    expect(supervisor.hostProblem).toMatch(/stopped 5 times in a row/);
    expect(notices).toEqual([expect.stringMatching(/stopped unexpectedly/), supervisor.hostProblem]);
    timers.advance(60_000);
    expect(hosts).toHaveLength(5);

    const asked = supervisor.ask('again', 4242);
    expect(hosts).toHaveLength(6);
    expect(supervisor.hostState).toBe('restarting');
    expect(supervisor.hostProblem).toBeUndefined();
    current().ready(2);
    expect(current().methods()).toEqual(['settings', 'ask']);
    expect(notices.at(-1)).toMatch(/running again/);
    current().reply(1, { askId: 'h-ask-1' });
    await expect(asked).resolves.toEqual({ askId: 'h-ask-1' });
  });

  it('restarts a given-up host on request, and only then', () => {
    supervisor.restart();
    expect(hosts).toHaveLength(1);
    for (let crash = 0; crash < 5; crash += 1) {
      current().exit(1);
      timers.advance(4000);
    }
    supervisor.restart();
    expect(hosts).toHaveLength(6);
  });

  it('ends the asks the dead host was running with a retryable error, and rejects waiting requests', async () => {
    current().ready(555);
    current().event('agent', { type: 'ask', askId: 'h-ask-1', text: 'q', pid: 4242 });
    current().event('agent', { type: 'ask', askId: 'h-ask-2', text: 'q2', pid: 4242 });
    current().event('agent', { type: 'done', askId: 'h-ask-2', answer: '', stopped: false, reason: 'answered' });
    const target = supervisor.frontmost();
    current().exit(null);
    await expect(target).rejects.toMatchObject({ code: 'INTERNAL', isRetryable: true });
    const errors = events.filter((event) => event.type === 'error');
    expect(errors).toEqual([{ type: 'error', askId: 'h-ask-1', error: expect.objectContaining({ code: 'INTERNAL', isRetryable: true }) as unknown }]);
  });

  it('gives up on a frontmost request after its timeout and forgets it, so a later host never gets it', async () => {
    const target = supervisor.frontmost(300);
    timers.advance(300);
    expect(await target).toBeNull();
    current().ready(1);
    expect(current().methods()).toEqual(['settings']);
    // Sent but never answered: the late reply finds nothing waiting.
    const late = supervisor.frontmost(300);
    timers.advance(300);
    expect(await late).toBeNull();
    current().reply(2, { pid: 1, app: 'x', title: '' });
    expect(logs).toEqual([]);
  });

  it('cancels a request when its signal aborts: the host hears a cancel, the caller gets STOPPED', async () => {
    current().ready(1);
    const controller = new AbortController();
    const listed = supervisor.request('workflowList', {}, { signal: controller.signal });
    controller.abort();
    await expect(listed).rejects.toMatchObject({ code: 'STOPPED' });
    expect(current().received.slice(1)).toEqual([
      { rpc: 'request', id: 1, method: 'workflowList', params: {} },
      { rpc: 'cancel', id: 1 },
    ]);
  });

  it('checks every reply against its method’s schema: a malformed one is a typed error, never a value', async () => {
    current().ready(1);
    const target = supervisor.frontmost();
    current().reply(1, { pid: -5, app: 'x', title: '' });
    await expect(target).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(logs).toEqual([expect.stringMatching(/^invalid reply to frontmost: 'pid'/)]);
  });

  it('kills a host that never says ready', () => {
    timers.advance(10_000);
    expect(hosts[0]?.killed).toBe(true);
    expect(logs[0]).toMatch(/did not start in time/);
    expect(states).toEqual(['restarting']);
  });

  it('ignores invalid messages from the host and logs them without their content', () => {
    current().ready(555);
    current().event('agent', { type: 'launch_missiles', askId: 'x' });
    current().event('log', { level: 'info' });
    current().say('sk-secret-looking-garbage');
    expect(events).toEqual([]);
    expect(logs).toHaveLength(3);
    expect(logs.every((line) => line.startsWith('ignored an invalid message'))).toBe(true);
    expect(logs.join('\n')).not.toContain('sk-secret');
  });

  it('drops stop and approve while no host runs, and keeps everything else for the next one', () => {
    supervisor.notify('stop', {});
    supervisor.notify('approve', { id: 'a', decision: 'deny' });
    supervisor.notify('clear', {});
    current().ready(1);
    expect(current().methods()).toEqual(['settings', 'clear']);
  });

  it('a stop while no host runs drops the queued asks too: they end as stopped instead of running later', async () => {
    const asked = supervisor.ask('delete everything', 4242);
    supervisor.notify('stop', {});
    await expect(asked).rejects.toMatchObject({ code: 'STOPPED', data: { reason: 'stopped' } });
    expect(events).toEqual([
      { type: 'ask', askId: 'queued-1', text: 'delete everything', pid: 4242 },
      { type: 'done', askId: 'queued-1', answer: '', stopped: true, reason: 'stopped' },
    ]);
    current().ready(1);
    expect(current().methods()).toEqual(['settings']);
  });

  it('a clear while no host runs drops the queued asks without adding them back to the chat', async () => {
    const asked = supervisor.ask('q', 4242);
    supervisor.notify('clear', {});
    await expect(asked).rejects.toMatchObject({ data: { reason: 'stopped' } });
    expect(events).toEqual([]);
    current().ready(1);
    expect(current().methods()).toEqual(['settings', 'clear']);
  });

  it('stays down after shutdown', () => {
    current().ready(1);
    supervisor.shutdown();
    expect(hosts[0]?.killed).toBe(true);
    timers.advance(60_000);
    expect(hosts).toHaveLength(1);
    expect(notices).toEqual([]);
  });
});
