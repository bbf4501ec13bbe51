import type { AgentEvent } from '../../../src/shared/agent-events';
import type { AppEvent, AppStatus, DeskpilotApi, DocsStatus } from '../../../src/shared/ipc';
import type { PublicSettings, SettingsPatch } from '../../../src/shared/settings-derive';
import type { ChatEntry } from '../../../src/shared/transcript';
import type { WorkflowDraft, WorkflowListReply } from '../../../src/shared/workflow-ipc';

/** What a test starts the page with. Everything is plain JSON: it crosses into the page as text. */
export interface FakeBridgeOptions {
  status: AppStatus;
  settings: PublicSettings;
  history: ChatEntry[];
  /** Emit the `ask` event (ask-N) when ask() is called, as main's agent would. */
  echoAsks: boolean;
  /** The documentation index docsStatus() reports. */
  docs: DocsStatus;
  /** The workflows folder listWorkflows() reports, and what draftWorkflow() proposes. */
  workflows?: WorkflowListReply;
  workflowDraft?: WorkflowDraft;
  /** Calls that reject with the given message (main's validation error, a refused answer). */
  failures?: Partial<Record<keyof DeskpilotApi, string>>;
}

export interface RecordedCall {
  name: keyof DeskpilotApi;
  payload: unknown;
}

/** The page-side handle a test drives through page.evaluate. */
export interface FakeBridgeHandle {
  calls: RecordedCall[];
  emit(event: AppEvent): void;
  /** Agent events, one per task, `intervalMs` apart (0: as fast as tasks run); resolves when all are sent. */
  stream(events: AgentEvent[], intervalMs: number): Promise<void>;
  options: FakeBridgeOptions;
  /** Markdown renders seen through the app's performance marks: time and text length. */
  renders: { at: number; length: number }[];
  longTasks: number[];
}

/** `globalThis` inside the page, for page.evaluate callbacks (the test files are typed for Node, not the DOM). */
export type PageGlobal = typeof globalThis & { __fake: FakeBridgeHandle; deskpilot: DeskpilotApi };

/**
 * Runs in the page before the app: a complete `window.deskpilot` that records every call and
 * answers from `options`. It must not close over anything, because it travels as source text.
 */
function installFakeBridge(defaults: FakeBridgeOptions): void {
  // A test sets the options for the next load here, so one page serves many tests (a reload is far cheaper than a new page).
  const stored = sessionStorage.getItem('deskpilot-fake-options');
  const options = stored === null ? defaults : (JSON.parse(stored) as FakeBridgeOptions);
  const calls: RecordedCall[] = [];
  const listeners = new Set<(event: AppEvent) => void>();
  const renders: { at: number; length: number }[] = [];
  const longTasks: number[] = [];
  let askCount = 0;
  const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
  const record = (name: keyof DeskpilotApi, payload?: unknown) => calls.push({ name, payload: copy(payload) ?? null });
  const emit = (event: AppEvent) => {
    for (const listener of listeners) listener(copy(event));
  };
  const fail = (name: keyof DeskpilotApi) => {
    const message = options.failures?.[name];
    if (message === undefined) return;
    // Like the preload: the typed envelope, as plain data. A test writes `CODE: words`, or just words for main's refusals (VALIDATION).
    const coded = /^([A-Z][A-Z_]+): (.*)$/s.exec(message);
    throw coded === null ? { code: 'VALIDATION', message } : { code: coded[1], message: coded[2] };
  };
  const settingsAfter = (patch: SettingsPatch): PublicSettings => {
    const { apiKey, headers, ...rest } = patch;
    const next: PublicSettings = { ...options.settings, ...rest };
    if (apiKey !== undefined) next.hasApiKey = apiKey !== null;
    // Like main: the values are kept out of sight, only the names come back.
    if (headers !== undefined)
      next.headerNames =
        headers === null
          ? []
          : headers
              .split(';')
              .map((pair) => pair.split(':')[0]?.trim() ?? '')
              .filter((name) => name !== '');
    return next;
  };

  const api: DeskpilotApi = {
    appInfo: async () => (record('appInfo'), { name: 'Deskpilot', version: '0.1.0', platform: 'linux' }),
    // Like main: the status' language is the setting, with `system` resolved to the system's.
    status: async () => {
      record('status');
      const { language } = options.settings;
      return copy({ ...options.status, language: language === 'system' ? options.status.systemLanguage : language });
    },
    ask: async (request) => {
      record('ask', request);
      fail('ask');
      askCount += 1;
      const askId = `ask-${askCount}`;
      if (options.echoAsks) setTimeout(() => emit({ type: 'agent', event: { type: 'ask', askId, text: request.text, pid: 42 } }), 0);
      return { askId };
    },
    stop: async () => void record('stop'),
    approve: async (request) => {
      record('approve', request);
      fail('approve');
    },
    history: async () => {
      record('history');
      fail('history');
      return copy(options.history);
    },
    clearHistory: async () => {
      record('clearHistory');
      options.history = [];
    },
    settings: async () => (record('settings'), copy(options.settings)),
    updateSettings: async (patch) => {
      record('updateSettings', patch);
      fail('updateSettings');
      options.settings = settingsAfter(patch);
      return copy(options.settings);
    },
    openPermissionSettings: async () => void record('openPermissionSettings'),
    openExternal: async (request) => void record('openExternal', request),
    hideWindow: async () => void record('hideWindow'),
    restartHost: async () => void record('restartHost'),
    docsStatus: async () => (record('docsStatus'), copy(options.docs)),
    rebuildDocs: async () => void record('rebuildDocs'),
    addDocsFolder: async () => {
      record('addDocsFolder');
      options.settings = { ...options.settings, docsFolders: [...options.settings.docsFolders, '/home/ada/Manuals'] };
      return copy(options.settings);
    },
    importMcpServers: async () => {
      record('importMcpServers');
      options.settings = {
        ...options.settings,
        mcpServers: JSON.stringify({ mcpServers: { files: { command: 'npx', env: { TOKEN: '(stored)' } } } }, null, 2),
      };
      return copy(options.settings);
    },
    // A desktop with one broken part, as the Diagnose panel shows it.
    doctor: async (request) => (
      record('doctor', request),
      {
        ok: false,
        checks: [
          { id: 'display', status: 'ok', figure: 'DISPLAY=:0 answers' },
          { id: 'registry', status: 'fail', figure: 'the AT-SPI registry is not running', fix: 'start it again', fixKey: 'registry-gone' },
        ],
      }
    ),
    listWorkflows: async () => (
      record('listWorkflows'),
      copy(options.workflows ?? { workflows: [], folder: '/home/ada/.local/share/deskpilot/workflows', skipped: [] })
    ),
    runWorkflow: async (request) => {
      record('runWorkflow', request);
      fail('runWorkflow');
      return { runId: 'run-1' };
    },
    stopWorkflow: async () => void record('stopWorkflow'),
    draftWorkflow: async (request) => {
      record('draftWorkflow', request);
      fail('draftWorkflow');
      return copy(options.workflowDraft ?? { askId: request.askId, name: 'workflow', steps: [], parameters: [] });
    },
    saveWorkflow: async (request) => {
      record('saveWorkflow', request);
      fail('saveWorkflow');
      const saved = { name: request.name, title: request.name, steps: options.workflowDraft?.steps.length ?? 0, parameters: [], risky: false };
      const listing = options.workflows ?? { workflows: [], folder: '/home/ada/.local/share/deskpilot/workflows', skipped: [] };
      options.workflows = { ...listing, workflows: [...listing.workflows, saved] };
      return copy(saved);
    },
    relaunchApp: async () => {
      record('relaunchApp');
      fail('relaunchApp');
      // Like main: the relaunched app is the target, with nothing left to offer.
      const { relaunch: _offer, ...status } = options.status;
      options.status = status;
      emit({ type: 'status', status: copy(status) });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  // One event per task, like IPC messages. A MessageChannel hop is a task without the 4 ms clamp nested timers get.
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  // addEventListener (with start()) rather than onmessage: the file is typed for Node, whose MessagePort lacks it.
  channel.port1.addEventListener('message', () => waiting.shift()?.());
  channel.port1.start();
  const nextTask = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
  const stream = async (events: AgentEvent[], intervalMs: number) => {
    for (const event of events) {
      if (intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
      else await nextTask();
      emit({ type: 'agent', event });
    }
  };

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'deskpilot:markdown-render')
        renders.push({ at: entry.startTime, length: (entry as unknown as { detail?: { length?: number } }).detail?.length ?? -1 });
    }
  }).observe({ type: 'mark' });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    }).observe({ type: 'longtask' as 'mark' });
  } catch {
    // No Long Tasks API: the bench says so.
  }

  const page = globalThis as PageGlobal;
  Object.defineProperty(page, 'deskpilot', { value: api });
  page.__fake = { calls, emit, stream, options, renders, longTasks };
}

/** The init script's source. tsx (the bench) wraps named functions in `__name`, so that is defined first. */
export function fakeBridgeScript(options: FakeBridgeOptions): string {
  return `globalThis.__name = (target) => target;\n(${installFakeBridge.toString()})(${JSON.stringify(options)});`;
}
