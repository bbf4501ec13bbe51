import type { AgentEvent } from '../../../src/shared/agent-events';
import type { AppStatus, DocsStatus } from '../../../src/shared/ipc';
import { settingsDefaults, type PublicSettings } from '../../../src/shared/settings-derive';
import type { ChatEntry } from '../../../src/shared/transcript';
import type { FakeBridgeOptions } from './fake-bridge';

export const STATUS: AppStatus = {
  target: { pid: 42, app: 'gedit', title: 'notes.txt — ~/Documents' },
  hotkey: { accelerator: 'Alt+Space', registered: true },
  accessibility: 'not_needed',
  host: 'running',
  configured: true,
  language: 'en',
  systemLanguage: 'en',
};

export const SETTINGS: PublicSettings = {
  // Every setting at its default, so a new one needs nothing here; the values below are the fixture's own.
  ...settingsDefaults('linux'),
  preset: 'openrouter',
  baseUrl: '',
  model: 'openai/gpt-4o-mini',
  headerNames: [],
  hasApiKey: true,
  hotkey: 'Alt+Space',
  approvalPolicy: 'confirm-risky',
  openAtLogin: false,
  historyLimit: 200,
  docsFolders: ['/home/ada/Notes'],
  docsAppHelp: true,
  docsManPages: true,
  docsUserFolders: true,
  embeddingModel: '',
  language: 'system',
  answerLanguage: 'auto',
  mcpServers: '',
  toolAllowances: [],
  vision: 'auto',
  keepDevices: false,
  envOverrides: [],
  envVariables: {},
};

/** An index of a dozen files, updated at a fixed time, as Settings shows it. */
export const DOCS_STATUS: DocsStatus = {
  files: 12,
  skipped: 1,
  sections: 40,
  sizeBytes: 180_000,
  updatedAt: Date.UTC(2026, 10, 24, 9, 30),
  indexing: null,
  embedding: null,
};

export const DEFAULT_OPTIONS: FakeBridgeOptions = { status: STATUS, settings: SETTINGS, history: [], echoAsks: true, docs: DOCS_STATUS };

export function options(overrides: Partial<FakeBridgeOptions> = {}): FakeBridgeOptions {
  return { ...DEFAULT_OPTIONS, ...overrides };
}

/** An answer cut into `count` chunks of about equal size. */
export function chunked(askId: string, text: string, count: number): AgentEvent[] {
  const size = Math.ceil(text.length / count);
  const events: AgentEvent[] = [];
  for (let start = 0; start < text.length; start += size) events.push({ type: 'ai_chunk', askId, delta: text.slice(start, start + size) });
  return events;
}

/** The events of one plain answer after its `ask`. */
export function answer(askId: string, text: string, chunks = 4): AgentEvent[] {
  return [
    { type: 'ai_request', askId, iteration: 1, messageCount: 2 },
    ...chunked(askId, text, chunks),
    { type: 'ai_response', askId, text, toolCalls: [], finishReason: 'stop' },
    { type: 'done', askId, answer: text, stopped: false, reason: 'answered' },
  ];
}

export function uiActionResult(name: string, role: string, changed: boolean) {
  const node = { id: 'k3x9a', role, name, states: { enabled: true, focused: false }, actions: ['click'] };
  return {
    success: true,
    method: 'accessibility',
    nodeBefore: node,
    nodeAfter: node,
    changed,
    changes: changed ? ['title: "notes.txt" → "notes.txt (saved)"'] : [],
  };
}

/** A conversation with one of every kind of entry, so each kind's words are on screen. */
export const HISTORY: ChatEntry[] = [
  { kind: 'user', id: 'u1', askId: 'a1', text: 'Fill the form and save it', at: 0 },
  {
    kind: 'tool',
    id: 'c1',
    askId: 'a1',
    name: 'ui_fill_form',
    arguments: '{"fields":[{"label":"Name","value":"Ada"},{"label":"City","value":"Rio"}]}',
    // What the tool says of the call (core/tools/gist.ts), saved with the entry since calls carry it.
    gist: { verb: 'fill', targets: ['Name', 'City'], key: 'fields=[…]' },
    status: 'ok',
    logs: [],
  },
  {
    kind: 'tool',
    id: 'c2',
    askId: 'a1',
    name: 'ui_action',
    arguments: '{"action":"click","id":"k3x9a"}',
    gist: { verb: 'click', unnamed: 'element', key: 'click k3x9a' },
    status: 'failed',
    method: 'input',
    changed: false,
    target: 'Save button',
    message: 'NOT_SETTABLE',
    logs: ['resolved k3x9a'],
  },
  {
    kind: 'tool',
    id: 'c3',
    askId: 'a1',
    name: 'ui_tree',
    arguments: '{}',
    gist: { verb: 'look', unnamed: 'window', key: '' },
    status: 'running',
    logs: [],
  },
  {
    kind: 'assistant',
    id: 'r1',
    askId: 'a1',
    text: 'I filled in **Name** and **City**.',
    streaming: false,
    check: { confirmed: false, notes: ['City is "", not the "Rio" asked for.'] },
  },
  { kind: 'assistant', id: 'r2', askId: 'a2', text: 'Done.', streaming: false, cached: true, interrupted: true, check: { confirmed: true, notes: [] } },
  {
    kind: 'approval',
    id: 'p1',
    askId: 'a3',
    tool: 'ui_action',
    summary: 'click Delete',
    reason: 'clicks "Delete"',
    why: { code: 'clicks', values: { name: '"Delete"' } },
    plan: { verb: 'click', target: 'Delete' },
    app: 'gedit',
  },
  {
    kind: 'approval',
    id: 'p2',
    askId: 'a3',
    tool: 'ui_close_window',
    summary: 'close',
    reason: 'closes a window',
    why: { code: 'closesWindow' },
    decision: 'allow_app',
  },
  { kind: 'error', id: 'e1', askId: 'a4', error: { code: 'PROVIDER_RATE_LIMIT', message: '429 Too Many Requests', isRetryable: true }, retryText: 'try again' },
  { kind: 'notice', id: 'n1', level: 'info', text: 'The automation host is running again.', at: 0 },
];
