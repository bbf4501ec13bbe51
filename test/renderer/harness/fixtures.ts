import type { AgentEvent } from '../../../src/shared/agent-events';
import type { AppStatus, DocsStatus } from '../../../src/shared/ipc';
import type { PublicSettings } from '../../../src/shared/settings';
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
  envOverrides: [],
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
