/**
 * The real automation host in its own process (child_process.fork of the host bundled as the
 * app bundles it, the fake platform, the real provider against a local SSE server), driven by
 * main's real supervisor.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent-events';
import type { HostSettings } from '../../src/shared/host-protocol';
import { HOST_SETTINGS_DEFAULTS } from '../../src/shared/settings-derive';
import type { DocsStatus } from '../../src/shared/ipc';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HostClient } from '../../src/main/host-link/host-client';
import type { HostState } from '../../src/main/host-link/host-supervisor';
import { FIXTURE_PID } from '../../src/core/platform/fake/fake-platform';
import { startFakeOpenAIServer, textSteps, toolCallSteps, type FakeOpenAIServer } from '../agent/fake-openai-server';
import { buildHost, type BuiltHost } from './build-host';
import { MISBEHAVING_SERVER } from '../mcp-client/misbehaving-command';
import { forkHost, type ForkedHost } from './fork-host';
import type { WorkflowEvent } from '../../src/shared/workflow-ipc';
import { ActionEngine } from '../../src/core/actions/engine';
import { FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { findNodes } from '../../src/core/ui/query';

let host: BuiltHost;
let server: FakeOpenAIServer;
let supervisor: HostClient;
let children: ForkedHost[] = [];
let events: AgentEvent[] = [];
let states: HostState[] = [];
let notices: string[] = [];
let logs: string[] = [];
/** The first host starts before any test's provider server does; no ask goes to this address. */
let settings: HostSettings = settingsFor('http://127.0.0.1:9/v1');
/** The last conversation snapshot a host sent: what the supervisor hands a restarted one. */
let history: unknown[] = [];
let docs: DocsStatus[] = [];
let workflowEvents: WorkflowEvent[] = [];

async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 45_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const eventOf =
  <T extends AgentEvent['type']>(type: T, askId: string) =>
  () =>
    events.find((event): event is Extract<AgentEvent, { type: T }> => event.type === type && event.askId === askId);

// Compiled once, not by tsx in every host the tests fork.
beforeAll(async () => {
  host = await buildHost();
}, 60_000);

afterAll(() => host?.remove());

/** The settings main would send for a provider at `baseUrl`: the defaults, no MCP servers, no folders. */
function settingsFor(baseUrl: string): HostSettings {
  return {
    ...HOST_SETTINGS_DEFAULTS,
    preset: 'openai',
    baseUrl,
    model: 'fake-model',
    headers: '',
    apiKey: 'dummy-key',
    approvalPolicy: 'confirm-risky',
    embeddingModel: '',
    language: 'en',
    answerLanguage: 'auto',
    mcpServers: {},
    toolAllowances: [],
    vision: 'auto',
    docs: { folders: [], appHelp: true, manPages: true, userFolders: true },
  };
}

/** What the collectors hold is only what this test's host said. */
function forget(): void {
  events = [];
  states = [];
  notices = [];
  logs = [];
  docs = [];
  workflowEvents = [];
}

// Each test has its own provider server (so no reply one test scripted is left for the next) and the default settings.
beforeEach(async () => {
  server = await startFakeOpenAIServer();
  forget();
  settings = settingsFor(server.baseUrl);
});

afterEach(async () => {
  await server.close();
});

/** Main's real supervisor of forked hosts, reporting into the collectors above. */
async function startSupervisor(): Promise<void> {
  children = [];
  history = [];
  supervisor = new HostClient({
    spawn: () => {
      // Clear the variables a developer's shell may set, so only `settings` configures the provider.
      const child = forkHost(
        { DESKPILOT_API_KEY: '', DESKPILOT_BASE_URL: '', DESKPILOT_MODEL: '', DESKPILOT_HEADERS: '', OPENAI_API_KEY: '' },
        process.pid,
        host.entry,
      );
      children.push(child);
      child.onMessage((raw) => {
        const message = raw as { rpc?: unknown; event?: unknown; payload?: { messages?: unknown[] } };
        if (message.rpc === 'event' && message.event === 'history' && Array.isArray(message.payload?.messages)) history = message.payload.messages;
      });
      return child;
    },
    settings: () => settings,
    onAgentEvent: (event) => events.push(event),
    onState: (state) => states.push(state),
    onNotice: (_level, text) => notices.push(text),
    onLog: (_level, text) => logs.push(text),
    onDocs: (status) => docs.push(status),
    onWorkflow: (event) => workflowEvents.push(event),
    initialBackoffMs: 50,
  });
  supervisor.start();
  await until(() => supervisor.hostState === 'running', 'the host to start');
}

/**
 * One host serves these tests, as one host serves the app's every conversation: a fork costs
 * about a second on a busy 2-core machine. Before each test, main sends the default settings
 * and clears the conversation, as the chat's Clear does, so each test starts where a fresh
 * host would: no history, the default policy, no MCP servers, no folders.
 */
describe('automation host', () => {
  beforeAll(() => startSupervisor(), 60_000);
  afterAll(() => supervisor?.shutdown());

  beforeEach(async () => {
    supervisor.settingsChanged();
    history = ['the last test’s conversation'];
    supervisor.notify('clear', {});
    // The host answers a clear with the empty conversation, after everything it said before it.
    await until(() => history.length === 0, 'the cleared conversation');
    forget();
  });

  it('answers an ask with agent events and reports the conversation', async () => {
    server.reply({ kind: 'stream', steps: textSteps(['It has ', 'a checkbox.']) });
    const { askId } = await supervisor.ask('what is this?', FIXTURE_PID);
    const done = await until(eventOf('done', askId), 'done');
    expect(done).toMatchObject({ answer: 'It has a checkbox.', stopped: false, reason: 'answered' });
    expect(events.filter((event) => event.askId === askId).map((event) => event.type)).toEqual([
      'ask',
      'ai_request',
      'ai_chunk',
      'ai_chunk',
      'ai_response',
      'done',
    ]);
    await until(() => history.length === 2, 'the history snapshot');
    expect(history).toEqual([
      { role: 'user', content: 'what is this?' },
      { role: 'assistant', content: 'It has a checkbox.' },
    ]);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer dummy-key');
    expect(logs.join('\n')).not.toContain('dummy-key');
  });

  it('saves a completed ask as a workflow and replays it with new values, through the real protocol', async () => {
    // The fake platform's ids are the same in every process: read the Name field's here.
    const { root } = await new ActionEngine({ platform: new FakePlatform() }).observe(FIXTURE_PID);
    const nameId = findNodes(root, { name: 'Name', limit: 1 })[0]?.node.id ?? '';
    server.reply(
      {
        kind: 'stream',
        steps: toolCallSteps([{ id: 'call-1', name: 'ui_action', arguments: JSON.stringify({ action: 'set_value', id: nameId, value: 'Grace Hopper' }) }]),
      },
      { kind: 'stream', steps: textSteps(['Done.']) },
    );
    const { askId } = await supervisor.ask('put Grace Hopper in the name', FIXTURE_PID);
    await until(eventOf('done', askId), 'done');
    const draft = await supervisor.request('workflowDraft', { askId });
    expect(draft.parameters).toEqual([{ name: 'name', description: 'Name (from the question)', default: 'Grace Hopper', secret: false }]);
    const saved = await supervisor.request('workflowSave', { askId, name: 'grace', parameters: ['name'] });
    expect(saved).toMatchObject({ name: 'grace', steps: 1 });
    expect((await supervisor.request('workflowList', {})).workflows.map((each) => each.name)).toEqual(['grace']);

    const { runId } = await supervisor.request('workflowRun', { name: 'grace', vars: { name: 'Linus' }, pid: FIXTURE_PID });
    const finished = await until(() => workflowEvents.find((event) => event.type === 'finished' && event.runId === runId), 'the run to finish');
    expect(finished).toMatchObject({ report: { status: 'completed', steps: [{ step: 1, status: 'ok', rung: 'identity' }] } });
    expect(workflowEvents.map((event) => event.type)).toEqual(['started', 'step', 'finished']);
  });

  it('stops a running ask', async () => {
    server.reply({ kind: 'stream', steps: [{ delta: { role: 'assistant', content: 'Thinking' } }, { delayMs: 10_000 }, { finishReason: 'stop' }] });
    const { askId } = await supervisor.ask('slow one', FIXTURE_PID);
    await until(eventOf('ai_chunk', askId), 'the first chunk');
    supervisor.notify('stop', {});
    expect(await until(eventOf('done', askId), 'done after stop')).toMatchObject({ stopped: true, reason: 'stopped' });
  });

  it('relays an approval to main and the answer back', async () => {
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call-1', name: 'ui_action', arguments: '{"action":"key","key":"ctrl+q"}' }]) },
      { kind: 'stream', steps: textSteps(['Not quitting.']) },
    );
    const { askId } = await supervisor.ask('quit it', FIXTURE_PID);
    const request = await until(eventOf('approval_request', askId), 'the approval request');
    expect(request.reason).toContain('ctrl+q');
    supervisor.notify('approve', { id: request.id, decision: 'deny' });
    const result = await until(eventOf('tool_result', askId), 'the denied tool result');
    expect(result).toMatchObject({ success: false });
    expect(result.message).toMatch(/^DENIED: the user declined/);
    expect(await until(eventOf('done', askId), 'done')).toMatchObject({ answer: 'Not quitting.' });
  });

  it('rejects invalid requests and keeps running', async () => {
    const child = children.at(-1);
    if (child === undefined) throw new Error('no host');
    child.process.send({ rpc: 'request', id: 7, method: 'ask', params: { text: '', pid: -1 } });
    child.process.send('not even an object');
    child.process.send({ rpc: 'notify', method: 'settings', params: { settings: { ...settings, preset: 'nope', apiKey: 'sk-must-not-leak' } } });
    await until(() => logs.filter((line) => line.startsWith('rejected an invalid request')).length === 3, 'three rejections');
    expect(logs.join('\n')).not.toContain('sk-must-not-leak');
    server.reply({ kind: 'stream', steps: textSteps(['Still here.']) });
    const { askId } = await supervisor.ask('still alive?', FIXTURE_PID);
    expect(await until(eventOf('done', askId), 'done')).toMatchObject({ answer: 'Still here.' });
  });

  it('applies a new approval policy to the next ask and keeps the conversation', async () => {
    server.reply({ kind: 'stream', steps: textSteps(['Hello.']) });
    const first = await supervisor.ask('hello', FIXTURE_PID);
    await until(eventOf('done', first.askId), 'the first answer');
    settings = { ...settings, approvalPolicy: 'auto' };
    supervisor.settingsChanged();
    await until(() => logs.includes('approval policy is now auto'), 'the policy change');
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call-1', name: 'ui_action', arguments: '{"action":"key","key":"ctrl+q"}' }]) },
      { kind: 'stream', steps: textSteps(['Pressed.']) },
    );
    const second = await supervisor.ask('press ctrl+q', FIXTURE_PID);
    expect(second.askId).not.toBe(first.askId);
    await until(eventOf('done', second.askId), 'the second answer');
    expect(events.some((event) => event.type === 'approval_request')).toBe(false);
    const messages = (server.requests[1]?.body['messages'] ?? []) as { content: unknown }[];
    expect(messages.map((message) => message.content)).toContain('hello');
  });

  it('stops an answer after the most steps the user set (maxSteps), from the next ask on', async () => {
    settings = { ...settings, agent: { maxIterations: 1 } };
    supervisor.settingsChanged();
    await until(() => logs.includes('approval policy is now confirm-risky'), 'the Agent rebuilt with the new settings');
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call-1', name: 'list_apps', arguments: '{}' }]) },
      { kind: 'stream', steps: toolCallSteps([{ id: 'call-2', name: 'list_apps', arguments: '{}' }]) },
    );
    const { askId } = await supervisor.ask('list the apps, twice', FIXTURE_PID);
    await until(eventOf('done', askId), 'the answer');
    expect(eventOf('done', askId)()?.reason).toBe('iteration_limit');
    expect(server.requests).toHaveLength(1);
  });

  it('suggests what to ask from the app’s tree: the fixture has a form and a long list', async () => {
    expect(await supervisor.suggest(FIXTURE_PID)).toEqual(['whatCanIDo', 'fillForm', 'findItem']);
    // An app that is gone still gets the generic two.
    expect(await supervisor.suggest(999_999)).toEqual(['whatCanIDo', 'summarize']);
  });

  it('starts the user’s MCP servers on the first ask, says so, and offers their tools to the model', async () => {
    settings = { ...settings, mcpServers: { odd: MISBEHAVING_SERVER } };
    supervisor.settingsChanged();
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call_1', name: 'odd__echo', arguments: '{"text":"from the server"}' }]) },
      { kind: 'stream', steps: textSteps(['It said: from the server.']) },
    );
    const { askId } = await supervisor.ask('ask the server', FIXTURE_PID);
    await until(eventOf('done', askId), 'done', 30_000);
    expect(events.find((event) => event.type === 'tool_result' && event.askId === askId)).toMatchObject({
      name: 'odd__echo',
      success: true,
      message: 'echo: from the server',
    });
    expect(notices).toContainEqual(expect.stringMatching(/^MCP server odd started with \d+ tools\.$/));
    // A crash mid-call is a tool error for the model and a notice for the user; the host lives on.
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call_2', name: 'odd__crash', arguments: '{}' }]) },
      { kind: 'stream', steps: textSteps(['The server crashed.']) },
    );
    const second = await supervisor.ask('crash it', FIXTURE_PID);
    // Not marked read-only, so it is risky: the card names the server, the tool and the arguments.
    const approval = await until(eventOf('approval_request', second.askId), 'the approval request');
    expect(approval).toMatchObject({ tool: 'odd__crash', why: { code: 'external' }, plan: { verb: 'run', target: 'odd › crash', value: '{}' } });
    supervisor.notify('approve', { id: approval.id, decision: 'allow_once' });
    await until(eventOf('done', second.askId), 'the second done', 30_000);
    expect(events.find((event) => event.type === 'tool_result' && event.askId === second.askId)).toMatchObject({ name: 'odd__crash', success: false });
    await until(() => notices.some((notice) => notice.startsWith('MCP server odd stopped')), 'the stop notice');
    expect(supervisor.hostState).toBe('running');
  }, 60_000);

  it('reports the frontmost app as the target', async () => {
    expect(await supervisor.frontmost()).toMatchObject({ pid: FIXTURE_PID });
  });

  it('indexes the folders from the settings in the background, reports it, and rebuilds on request', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'deskpilot-host-docs-'));
    writeFileSync(path.join(folder, 'printer.md'), '# Printer\n\n## Two-sided\nPick Two-sided in the dialog.\n');
    writeFileSync(path.join(folder, 'broken.pdf'), 'not a pdf');
    settings = { ...settings, docs: { ...settings.docs, folders: [folder] } };
    supervisor.settingsChanged();
    await until(() => docs.some((status) => status.files === 1 && status.indexing === null), 'the folder to be indexed');
    expect(await supervisor.docsStatus()).toMatchObject({ files: 1, skipped: 1, sections: 1, indexing: null, embedding: null });
    const reported = docs.length;
    supervisor.notify('docsRebuild', {});
    await until(() => docs.length > reported && docs.at(-1)?.indexing === null, 'the rebuild');
    expect(docs.at(-1)).toMatchObject({ files: 1, skipped: 1 });
    rmSync(folder, { recursive: true, force: true });
  });
});

/** A host that dies: each test has a supervisor and a host of its own, so each kill is the first of a crash streak. */
describe('automation host that dies', () => {
  beforeEach(() => startSupervisor(), 60_000);
  afterEach(() => supervisor.shutdown());

  it('restarts a killed host, tells the user, and restores the conversation', async () => {
    server.reply({ kind: 'stream', steps: textSteps(['First answer.']) });
    const first = await supervisor.ask('first question', FIXTURE_PID);
    await until(eventOf('done', first.askId), 'the first answer');
    await until(() => history.length === 2, 'the history snapshot');

    children[0]?.process.kill('SIGKILL');
    await until(() => states.includes('restarting'), 'restarting');
    await until(() => children.length === 2 && supervisor.hostState === 'running', 'the restarted host');
    expect(notices[0]).toMatch(/automation host stopped unexpectedly/);
    await until(() => notices.some((text) => text.includes('running again')), 'the running-again notice');

    server.reply({ kind: 'stream', steps: textSteps(['Second answer.']) });
    const second = await supervisor.ask('second question', FIXTURE_PID);
    await until(eventOf('done', second.askId), 'the second answer');
    // A new host numbers its asks afresh; the ids main sees must still be unique.
    expect(second.askId).not.toBe(first.askId);
    const messages = (server.requests[1]?.body['messages'] ?? []) as { role: string; content: unknown }[];
    expect(messages.filter((message) => message.role !== 'system').map((message) => message.content)).toEqual([
      'first question',
      'First answer.',
      expect.stringContaining('') as unknown,
      'second question',
    ]);
  }, 30_000);

  it('ends an ask the dead host was running with a retryable error', async () => {
    server.reply({ kind: 'stream', steps: [{ delta: { role: 'assistant', content: 'Work' } }, { delayMs: 10_000 }, { finishReason: 'stop' }] });
    const { askId } = await supervisor.ask('long task', FIXTURE_PID);
    await until(eventOf('ai_chunk', askId), 'the first chunk');
    children[0]?.process.kill('SIGKILL');
    const error = await until(eventOf('error', askId), 'the error entry');
    expect(error.error).toMatchObject({ code: 'INTERNAL', isRetryable: true });
    await until(() => supervisor.hostState === 'running', 'the restarted host');
  }, 30_000);
});

// Main's Diagnose button starts the same entry with --doctor: one report, then it exits.
describe('the host started with --doctor', () => {
  it('answers one report for the settings it is sent, and exits', async () => {
    const child = fork(host.entry, [`--main-pid=${process.pid}`, '--doctor'], {
      env: {
        ...process.env,
        DESKPILOT_PLATFORM: 'fake',
        DESKPILOT_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'deskpilot-doctor-')),
        DESKPILOT_PROVIDER: 'openai',
        DESKPILOT_API_KEY: 'sk-test',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const answer = new Promise<unknown>((resolve) => child.once('message', resolve));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.send({ type: 'doctor', settings: HOST_SETTINGS_DEFAULTS, online: false });
    expect(await answer).toMatchObject({
      type: 'doctor-report',
      report: {
        checks: [
          { id: 'provider', status: 'ok', figure: expect.stringMatching(/^OpenAI, model /) },
          { id: 'docs-index', status: 'skip' },
        ],
      },
    });
    expect(await exited).toBe(0);
  }, 20_000);
});
