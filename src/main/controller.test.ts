import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../shared/agent-events';
import { CHANNELS, type AppEvent, type DocsStatus, type IpcReply, type TargetApp } from '../shared/ipc';
import type { PublicSettings } from '../shared/settings-derive';
import type { ChatEntry } from '../shared/transcript';
import type { HostState } from './host-link/host-supervisor';

type Handler = (event: unknown, payload: unknown) => Promise<unknown>;
const handlers = new Map<string, Handler>();
vi.mock('electron', () => ({
  ipcMain: { handle: (channel: string, handler: Handler) => handlers.set(channel, handler) },
  BrowserWindow: vi.fn(),
  shell: { openExternal: vi.fn() },
}));

const { MainController } = await import('./controller');
const { registerIpcHandlers } = await import('./ipc/ipc-handlers');
const { Hotkey } = await import('./shell/hotkey');
const { SettingsService } = await import('./settings/settings');
const { SETTINGS_DEFAULTS } = await import('./settings/settings-store');
const { Transcript } = await import('./settings/transcript-store');
const { createI18n } = await import('../shared/i18n/i18n');

const SECRET = 'sk-never-to-the-renderer';
const TEXT_EDITOR: TargetApp = { pid: 4242, app: 'gedit', title: 'notes.txt' };
/** An Electron app started without accessibility: the host offers to relaunch it. */
const ELECTRON_APP: TargetApp = { pid: 5151, app: 'notes', title: 'Notes' };
const RELAUNCH = { app: 'notes', command: '/opt/notes/notes --force-renderer-accessibility' };

function relaunchOffer(params: object): typeof RELAUNCH | null {
  return 'pid' in params && params.pid === ELECTRON_APP.pid ? RELAUNCH : null;
}
const MAIN_PID = 100;
const trusted = { sender: 'our window' };

let calls: string[];
let pushed: AppEvent[];
/** The host's notifications, as `{ type: method, ...params }`. */
let sent: Record<string, unknown>[];
let frontmost: () => Promise<TargetApp | null>;
let visible: boolean;
let focused: boolean;
let taken: Set<string>;
let openAtLogin: boolean[];
let stored: ChatEntry[];
const writes: (() => void)[] = [];
let pickedFolder: string | undefined;
const DOCS_STATUS: DocsStatus = { files: 3, skipped: 0, sections: 9, sizeBytes: 4096, updatedAt: null, indexing: null, embedding: null };

function build() {
  // Alt+Space, whatever this machine's default: these tests are about registering, not the default.
  const values = new Map<string, unknown>(Object.entries({ ...SETTINGS_DEFAULTS, hotkey: 'Alt+Space' }));
  const store = {
    get: (key: string) => values.get(key),
    set: (key: string | Record<string, unknown>, value?: unknown) => {
      for (const [name, item] of typeof key === 'string' ? [[key, value] as const] : Object.entries(key)) values.set(name, item);
    },
  };
  const settings = new SettingsService({
    store: store as never,
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (text) => Buffer.from(`enc:${text.length}`),
      decryptString: () => SECRET,
    },
    env: () => ({}),
    platform: 'darwin',
  });
  const transcript = new Transcript({
    store: { get: () => [], set: (_key, entries) => (stored = entries) },
    limit: () => settings.get('historyLimit'),
    now: () => 1000,
    writeDelayMs: 0,
    // Writes wait here until a test runs them, instead of for a real timer.
    timers: {
      setTimeout: (callback) => writes.push(callback),
      clearTimeout: () => (writes.length = 0),
    },
  });
  const i18n = createI18n('en');
  const hotkey = new Hotkey(
    {
      register: (accelerator) => {
        calls.push(`register ${accelerator}`);
        if (accelerator === 'Nonsense+') throw new Error('Failed to parse accelerator');
        return !taken.has(accelerator);
      },
      unregister: (accelerator) => calls.push(`unregister ${accelerator}`),
    },
    () => undefined,
    i18n,
  );
  const supervisor = {
    hostState: 'running' as HostState,
    hostProblem: undefined as string | undefined,
    ask: vi.fn((text: string, pid: number) => Promise.resolve({ askId: `a-${text}-${pid}` })),
    notify: vi.fn((method: string, params: object) => void sent.push({ type: method, ...params })),
    frontmost: vi.fn(() => {
      calls.push('frontmost');
      return frontmost();
    }),
    settingsChanged: vi.fn(),
    restart: vi.fn(),
    docsStatus: vi.fn(() => Promise.resolve(DOCS_STATUS)),
    request: vi.fn(
      (method: string, params: object) => Promise.resolve(method === 'relaunchOffer' ? relaunchOffer(params) : { asked: { type: method, ...params } }) as never,
    ),
    suggest: vi.fn((pid: number) => Promise.resolve(pid === TEXT_EDITOR.pid ? (['whatCanIDo', 'readDocument', 'summarize'] as const).slice() : [])),
  };
  const controller = new MainController({
    appInfo: { name: 'Deskpilot', version: '0.1.0', platform: 'darwin' },
    supervisor,
    settings,
    transcript,
    hotkey,
    window: {
      isVisible: () => visible,
      isFocused: () => focused,
      show: () => {
        calls.push('show');
        visible = true;
        focused = true;
      },
      hide: () => {
        calls.push('hide');
        visible = false;
        focused = false;
      },
    },
    push: (event) => pushed.push(event),
    ownPids: () => [MAIN_PID, 101],
    accessibility: () => 'granted',
    openExternal: vi.fn(() => Promise.resolve()),
    openPermissionSettings: vi.fn(() => Promise.resolve()),
    setOpenAtLogin: (open) => openAtLogin.push(open),
    pickFolder: () => Promise.resolve(pickedFolder),
    log: () => undefined,
    languageChanged: (language) => void i18n.changeLanguage(language),
    frontmostTimeoutMs: 50,
  });
  return { controller, supervisor, settings, transcript };
}

let subject: ReturnType<typeof build>;

beforeEach(() => {
  handlers.clear();
  calls = [];
  pushed = [];
  sent = [];
  visible = false;
  focused = false;
  taken = new Set();
  openAtLogin = [];
  stored = [];
  pickedFolder = undefined;
  frontmost = () => Promise.resolve(TEXT_EDITOR);
  subject = build();
  registerIpcHandlers(subject.controller.handlers(), (event) => (event as unknown) === trusted);
});

async function call<T>(channel: string, payload?: unknown, event: unknown = trusted): Promise<IpcReply<T>> {
  const handler = handlers.get(channel);
  if (handler === undefined) throw new Error(`no handler for ${channel}`);
  return (await handler(event, payload)) as IpcReply<T>;
}

async function value<T>(channel: string, payload?: unknown): Promise<T> {
  const reply = await call<T>(channel, payload);
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.message}`);
  return reply.value;
}

/** A valid payload for each channel, so the refusals below are about the sender or the shape only. */
const VALID: Record<string, unknown> = {
  [CHANNELS.ask]: { text: 'what is this?' },
  [CHANNELS.approve]: { id: 'x-approval-1', decision: 'allow_once' },
  [CHANNELS.updateSettings]: { model: 'm' },
  [CHANNELS.openExternal]: { url: 'https://example.org' },
  [CHANNELS.runWorkflow]: { name: 'weekly', vars: {} },
  [CHANNELS.draftWorkflow]: { askId: 'h1-ask-1' },
  [CHANNELS.saveWorkflow]: { askId: 'h1-ask-1', name: 'weekly', parameters: [] },
};

describe('IPC', () => {
  it('has a handler for every channel', () => {
    expect([...handlers.keys()].sort()).toEqual(Object.values(CHANNELS).sort());
  });

  it.each(Object.values(CHANNELS))('%s refuses a foreign sender before doing anything', async (channel) => {
    const reply = await call(channel, VALID[channel], { sender: 'a web page' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('unknown sender') } });
    expect(subject.supervisor.ask).not.toHaveBeenCalled();
    expect(sent).toEqual([]);
    expect(calls).toEqual([]);
  });

  it.each(Object.values(CHANNELS))('%s refuses a payload of the wrong shape', async (channel) => {
    expect(await call(channel, { unexpected: true, ...(VALID[channel] as object | undefined) })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(await call(channel, 'a string')).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
  });

  it('refuses bad values on the channels that take a payload', async () => {
    for (const [channel, payload] of [
      [CHANNELS.ask, { text: '   ' }],
      [CHANNELS.approve, { id: 'a', decision: 'maybe' }],
      [CHANNELS.updateSettings, { historyLimit: -1 }],
      [CHANNELS.updateSettings, { baseUrl: 'file:///etc' }],
      [CHANNELS.updateSettings, { docsFolders: ['relative/notes'] }],
      [CHANNELS.updateSettings, { docsFolders: Array.from({ length: 51 }, (_, index) => `/notes/${index}`) }],
      [CHANNELS.openExternal, { url: 'http://example.org' }],
      [CHANNELS.openExternal, { url: 'javascript:alert(1)' }],
      [CHANNELS.runWorkflow, { name: '../../etc/passwd', vars: {} }],
      [CHANNELS.runWorkflow, { name: 'weekly', vars: { 'bad name': 'x' } }],
      [CHANNELS.runWorkflow, { name: 'weekly', vars: { name: 42 } }],
      [CHANNELS.saveWorkflow, { askId: 'a', name: 'has space', parameters: [] }],
    ] as const) {
      expect(await call(channel, payload), channel).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    }
  });
});

describe('documentation settings', () => {
  it('adds the folder the dialog picked, passes the status through, and asks the host to rebuild', async () => {
    pickedFolder = '/home/ada/Manuals';
    expect(await value(CHANNELS.addDocsFolder)).toMatchObject({ docsFolders: ['/home/ada/Manuals'] });
    expect(subject.supervisor.settingsChanged).toHaveBeenCalled();
    pickedFolder = undefined;
    expect(await value(CHANNELS.addDocsFolder)).toMatchObject({ docsFolders: ['/home/ada/Manuals'] });
    expect(await value(CHANNELS.updateSettings, { docsFolders: [], docsManPages: false, embeddingModel: ' nomic-embed-text ' })).toMatchObject({
      docsFolders: [],
      docsManPages: false,
      embeddingModel: 'nomic-embed-text',
    });
    expect(await value(CHANNELS.docsStatus)).toEqual(DOCS_STATUS);
    await value(CHANNELS.rebuildDocs);
    expect(sent).toEqual([{ type: 'docsRebuild' }]);
  });
});

describe('target and window', () => {
  it('records the frontmost app before the window shows', async () => {
    await subject.controller.toggle();
    expect(calls).toEqual(['frontmost', 'show']);
    expect(subject.controller.status().target).toEqual(TEXT_EDITOR);
    expect(pushed.slice(0, 2).map((event) => event.type)).toEqual(['status', 'shown']);
  });

  it('then asks the host what the empty chat may suggest for that app, once per app', async () => {
    await subject.controller.toggle();
    await vi.waitFor(() => expect(subject.controller.status().suggestions).toEqual(['whatCanIDo', 'readDocument', 'summarize']), { timeout: 15_000 });
    expect(pushed.at(-1)).toMatchObject({ type: 'status', status: { suggestions: ['whatCanIDo', 'readDocument', 'summarize'] } });
    subject.controller.hide();
    await subject.controller.toggle();
    expect(subject.supervisor.suggest).toHaveBeenCalledTimes(1);
  });

  it('offers to relaunch an app that hides its content from accessibility, and relaunches it only when the window asks', async () => {
    await subject.controller.show();
    await expect(call(CHANNELS.relaunchApp)).resolves.toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(subject.controller.status().relaunch).toBeUndefined();
    subject.controller.hide();
    frontmost = () => Promise.resolve(ELECTRON_APP);
    await subject.controller.show();
    await vi.waitFor(() => expect(subject.controller.status().relaunch).toEqual(RELAUNCH), { timeout: 15_000 });
    expect(pushed.at(-1)).toMatchObject({ type: 'status', status: { relaunch: RELAUNCH } });
    expect(subject.supervisor.request.mock.calls.filter(([method]) => method === 'relaunchApp')).toEqual([]);
    subject.supervisor.request.mockImplementationOnce(() => Promise.resolve({ pid: 6262 }) as never);
    await value(CHANNELS.relaunchApp);
    expect(subject.supervisor.request).toHaveBeenLastCalledWith('relaunchApp', { pid: ELECTRON_APP.pid });
    // The relaunched app is the target from now on, and there is nothing left to offer.
    expect(subject.controller.status().target).toEqual({ ...ELECTRON_APP, pid: 6262 });
    expect(subject.controller.status().relaunch).toBeUndefined();
  });

  it('keeps the previous target when the frontmost app is Deskpilot, fails, or is slow', async () => {
    await subject.controller.show();
    subject.controller.hide();
    for (const attempt of [
      () => Promise.resolve({ pid: MAIN_PID, app: 'Deskpilot', title: '' }),
      () => Promise.reject(new Error('AT-SPI timeout')),
      // Never answers: only the controller's own deadline (50 ms, on fake timers here) can end the wait.
      () => new Promise<TargetApp>(() => undefined),
      () => Promise.resolve(null),
    ]) {
      frontmost = attempt;
      vi.useFakeTimers();
      try {
        const shown = subject.controller.show();
        await vi.advanceTimersByTimeAsync(50);
        await shown;
      } finally {
        vi.useRealTimers();
      }
      subject.controller.hide();
      expect(subject.controller.status().target).toEqual(TEXT_EDITOR);
    }
  });

  it('hides on the second press and on hideWindow, without stopping the ask', async () => {
    await subject.controller.toggle();
    await subject.controller.toggle();
    expect(calls).toEqual(['frontmost', 'show', 'hide']);
    await value(CHANNELS.hideWindow);
    expect(pushed.filter((event) => event.type === 'hidden')).toHaveLength(2);
    expect(sent).toEqual([]);
  });

  it('a press from another app while the window floats re-targets that app instead of hiding', async () => {
    await subject.controller.toggle();
    focused = false; // the user clicked into another app; the window stays on top
    const browser: TargetApp = { pid: 777, app: 'firefox', title: 'docs' };
    frontmost = () => Promise.resolve(browser);
    await subject.controller.toggle();
    expect(calls).toEqual(['frontmost', 'show', 'frontmost', 'show']);
    expect(subject.controller.status().target).toEqual(browser);
  });

  it('opens the settings view from the tray without reading the target again when shown', async () => {
    await subject.controller.show();
    await subject.controller.show('settings');
    expect(calls.filter((entry) => entry === 'frontmost')).toHaveLength(1);
    expect(pushed.at(-1)).toEqual({ type: 'shown', view: 'settings' });
  });
});

describe('workflows', () => {
  it('relays list, run (on the target app), draft, save and stop to the host', async () => {
    await subject.controller.show();
    await value(CHANNELS.listWorkflows);
    await value(CHANNELS.runWorkflow, { name: 'weekly', vars: { name: 'Ada' }, dryRun: true });
    await value(CHANNELS.draftWorkflow, { askId: 'h1-ask-1' });
    await value(CHANNELS.saveWorkflow, { askId: 'h1-ask-1', name: 'weekly', parameters: ['name'] });
    await value(CHANNELS.stopWorkflow);
    expect(
      subject.supervisor.request.mock.calls.filter(([method]) => method.startsWith('workflow')).map(([method, params]) => ({ type: method, ...params })),
    ).toEqual([
      { type: 'workflowList' },
      { type: 'workflowRun', name: 'weekly', vars: { name: 'Ada' }, dryRun: true, pid: 4242 },
      { type: 'workflowDraft', askId: 'h1-ask-1' },
      { type: 'workflowSave', askId: 'h1-ask-1', name: 'weekly', parameters: ['name'] },
    ]);
    expect(sent).toEqual([{ type: 'workflowStop' }]);
  });

  it("forwards a run's events, and shows the hidden window when a step needs approval", () => {
    subject.controller.workflowEvent({ type: 'started', runId: 'run-1', name: 'weekly', dryRun: false, steps: 2 });
    expect(calls).toEqual([]);
    const approval = { kind: 'approval' as const, id: 'run-1-approval-1', askId: 'run-1', tool: 'ui_action', summary: 'click Delete', reason: 'deletes' };
    subject.controller.workflowEvent({ type: 'approval', runId: 'run-1', approval });
    expect(calls).toEqual(['show']);
    expect(pushed.at(-2)).toEqual({ type: 'workflow', event: { type: 'approval', runId: 'run-1', approval } });
  });
});

describe('asks', () => {
  it('refuses an ask before there is a target', async () => {
    expect(await call(CHANNELS.ask, { text: 'hi' })).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('No app') } });
  });

  it('sends an ask about the target to the host', async () => {
    await subject.controller.show();
    expect(await value(CHANNELS.ask, { text: 'what is this?' })).toEqual({ askId: 'a-what is this?-4242' });
  });

  it('folds host events into the persisted transcript and forwards them', async () => {
    const events: AgentEvent[] = [
      { type: 'ask', askId: 'h1-ask-1', text: 'hello', pid: 4242 },
      { type: 'ai_chunk', askId: 'h1-ask-1', delta: 'Hi there' },
      { type: 'done', askId: 'h1-ask-1', answer: 'Hi there', stopped: false, reason: 'answered' },
    ];
    for (const event of events) subject.controller.agentEvent(event);
    expect(pushed).toEqual(events.map((event) => ({ type: 'agent', event })));
    const history = await value<ChatEntry[]>(CHANNELS.history);
    expect(history.map((entry) => entry.kind)).toEqual(['user', 'assistant']);
    for (const write of writes.splice(0)) write();
    expect(stored).toEqual(history);
  });

  it('shows the hidden window when an ask needs approval, without re-reading the target', async () => {
    const approval: AgentEvent = {
      type: 'approval_request',
      id: 'h1-approval-1',
      askId: 'h1-ask-1',
      callId: 'c1',
      tool: 'ui_action',
      summary: 'click Delete',
      reason: 'deletes',
    };
    subject.controller.agentEvent(approval);
    expect(calls).toEqual(['show']);
    expect(pushed).toEqual([{ type: 'agent', event: approval }, { type: 'shown' }]);
    // Already visible: nothing more.
    subject.controller.agentEvent({ ...approval, id: 'h1-approval-2' });
    expect(calls).toEqual(['show']);
  });

  it('stores "always" or "for this app" on a tool of an MCP server, tells the host, and Settings revokes it', async () => {
    const external = { server: 'files', tool: 'write_file' };
    const card = (id: string): AgentEvent => ({
      type: 'approval_request',
      id,
      askId: 'h1-ask-1',
      callId: id,
      tool: 'files__write_file',
      summary: '{}',
      reason: 'r',
      app: 'gedit',
      external,
    });
    subject.controller.agentEvent({ type: 'ask', askId: 'h1-ask-1', text: 'save it', pid: 4242 });
    subject.controller.agentEvent(card('h1-approval-1'));
    subject.controller.agentEvent(card('h1-approval-2'));
    subject.controller.agentEvent(card('h1-approval-3'));
    await value(CHANNELS.approve, { id: 'h1-approval-1', decision: 'allow_once' });
    expect(subject.supervisor.settingsChanged).not.toHaveBeenCalled();
    await value(CHANNELS.approve, { id: 'h1-approval-2', decision: 'allow_app' });
    await value(CHANNELS.approve, { id: 'h1-approval-3', decision: 'allow_server_always' });
    // A card already answered grants nothing more.
    await value(CHANNELS.approve, { id: 'h1-approval-3', decision: 'allow_always' });
    const stored = [{ server: 'files', tool: 'write_file', app: 'gedit' }, { server: 'files' }];
    expect(subject.settings.publicSettings().toolAllowances).toEqual(stored);
    expect(subject.settings.hostSettings().toolAllowances).toEqual(stored);
    expect(subject.supervisor.settingsChanged).toHaveBeenCalledTimes(2);
    const revoked = (await value(CHANNELS.updateSettings, { toolAllowances: [{ server: 'files' }] })) as PublicSettings;
    expect(revoked.toolAllowances).toEqual([{ server: 'files' }]);
    await expect(value(CHANNELS.updateSettings, { toolAllowances: [{ server: '' }] })).rejects.toThrow(/toolAllowances/);
  });

  it('relays approvals and stop, and clears both copies of the conversation', async () => {
    await value(CHANNELS.approve, { id: 'h1-approval-1', decision: 'deny' });
    await value(CHANNELS.stop);
    subject.controller.notice('info', 'something');
    await value(CHANNELS.clearHistory);
    expect(sent).toEqual([{ type: 'approve', id: 'h1-approval-1', decision: 'deny' }, { type: 'stop' }, { type: 'clear' }]);
    expect(await value(CHANNELS.history)).toEqual([]);
  });
});

describe('hotkey', () => {
  it('registers the configured accelerator', () => {
    subject.controller.applyHotkey();
    expect(subject.controller.status().hotkey).toEqual({ accelerator: 'Alt+Space', registered: true });
  });

  it('says clearly when another app holds it, in the status and as a notice', () => {
    taken.add('Alt+Space');
    subject.controller.applyHotkey();
    const { hotkey } = subject.controller.status();
    expect(hotkey).toMatchObject({ accelerator: 'Alt+Space', registered: false, error: expect.stringContaining('already used') });
    expect(pushed).toContainEqual({ type: 'notice', level: 'error', text: hotkey.error });
  });

  it('says the hotkey error in the new language once the language changes', async () => {
    taken.add('Alt+Space');
    subject.controller.applyHotkey();
    expect(subject.controller.status().hotkey.error).toContain('already used');
    expect(await call(CHANNELS.updateSettings, { language: 'pt-BR' })).toMatchObject({ ok: true });
    expect(subject.controller.status()).toMatchObject({ language: 'pt-BR', hotkey: { registered: false, error: expect.stringContaining('já é usado') } });
    expect(pushed.at(-1)).toMatchObject({ type: 'status', status: { language: 'pt-BR' } });
  });

  it('notices a hotkey that fails on every launch once, not once per launch', () => {
    taken.add('Alt+Space');
    subject.controller.applyHotkey();
    subject.controller.applyHotkey();
    expect(subject.transcript.list().filter((entry) => entry.kind === 'notice')).toHaveLength(1);
    expect(pushed.filter((event) => event.type === 'notice')).toHaveLength(1);
  });

  it('switches to a new accelerator only once it registered', async () => {
    subject.controller.applyHotkey();
    await value(CHANNELS.updateSettings, { hotkey: 'Control+Shift+Space' });
    expect(calls).toEqual(['register Alt+Space', 'register Control+Shift+Space', 'unregister Alt+Space']);
    expect(subject.settings.get('hotkey')).toBe('Control+Shift+Space');
  });

  it('refuses an accelerator that does not register: the old one keeps working and nothing in the patch is stored', async () => {
    subject.controller.applyHotkey();
    const reply = await call(CHANNELS.updateSettings, { hotkey: 'Nonsense+', model: 'other' });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', message: expect.stringMatching(/^Nonsense\+ is not a shortcut.*Alt\+Space stays/) },
    });
    taken.add('Control+X');
    expect(await call(CHANNELS.updateSettings, { hotkey: 'Control+X' })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('already used') },
    });
    expect(subject.controller.status().hotkey).toEqual({ accelerator: 'Alt+Space', registered: true });
    expect(subject.settings.get('hotkey')).toBe('Alt+Space');
    expect(subject.settings.get('model')).toBe('');
    expect(calls.filter((line) => line.startsWith('unregister'))).toEqual([]);
  });
});

describe('settings', () => {
  it('stores a key, tells the host, and never returns the key', async () => {
    const reply = await call(CHANNELS.updateSettings, { apiKey: SECRET });
    expect(reply).toMatchObject({ ok: true, value: { hasApiKey: true } });
    expect(JSON.stringify(reply)).not.toContain(SECRET);
    expect(JSON.stringify(await call(CHANNELS.settings))).not.toContain(SECRET);
    expect(JSON.stringify(pushed)).not.toContain(SECRET);
    expect(subject.supervisor.settingsChanged).toHaveBeenCalled();
    expect(subject.settings.hostSettings().apiKey).toBe(SECRET);
    expect((await value<{ configured: boolean }>(CHANNELS.status)).configured).toBe(true);
  });

  it('says in the status why no model can be reached, for the first-run view', async () => {
    const status = await value<{ configured: boolean; configError?: string }>(CHANNELS.status);
    expect(status).toMatchObject({ configured: false, configError: expect.stringContaining('No API key for OpenRouter') });
    await value(CHANNELS.updateSettings, { apiKey: SECRET });
    expect(await value(CHANNELS.status)).not.toHaveProperty('configError');
  });

  it('refuses a base URL longer than the store takes before anything runs', async () => {
    const reply = await call(CHANNELS.updateSettings, { baseUrl: `https://example.com/${'a'.repeat(2000)}`, model: 'x' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: expect.stringContaining('baseUrl') } });
    expect(subject.settings.get('model')).toBe('');
  });

  it('says in the status why the host was given up on, and restarts it on request', async () => {
    subject.supervisor.hostState = 'failed';
    subject.supervisor.hostProblem = 'The automation host stopped 5 times in a row';
    expect(await value(CHANNELS.status)).toMatchObject({ host: 'failed', hostError: expect.stringContaining('5 times') });
    await value(CHANNELS.restartHost);
    expect(subject.supervisor.restart).toHaveBeenCalled();
  });

  it('turns open-at-login on and off', async () => {
    await value(CHANNELS.updateSettings, { openAtLogin: true });
    await value(CHANNELS.updateSettings, { model: 'x' });
    await value(CHANNELS.updateSettings, { openAtLogin: false });
    expect(openAtLogin).toEqual([true, false]);
  });
});
