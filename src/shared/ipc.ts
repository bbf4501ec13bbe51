import type { AgentEvent } from './agent-events';
import type { SerializedError } from './errors';
import type { Language } from './i18n/i18n';
import type { SuggestionKind } from './suggestions';
import type { ApprovalDecision } from './settings';
import type { PublicSettings, SettingsPatch } from './settings-derive';
import type { ChatEntry } from './transcript';
import type {
  WorkflowDraft,
  WorkflowDraftRequest,
  WorkflowEvent,
  WorkflowListReply,
  WorkflowRunReply,
  WorkflowRunRequest,
  WorkflowSaveRequest,
  WorkflowSummary,
} from './workflow-ipc';

/**
 * The typed IPC contract between renderer and main. Channels are `domain:action`.
 * This file carries no runtime dependency, because the sandboxed preload imports it;
 * the payload schemas main validates against live in ipc-schemas.ts.
 */
export const CHANNELS = {
  appInfo: 'app:info',
  status: 'app:status',
  ask: 'agent:ask',
  stop: 'agent:stop',
  approve: 'agent:approve',
  history: 'history:get',
  clearHistory: 'history:clear',
  settings: 'settings:get',
  updateSettings: 'settings:update',
  openPermissionSettings: 'permissions:open',
  openExternal: 'link:open',
  hideWindow: 'window:hide',
  restartHost: 'host:restart',
  docsStatus: 'docs:status',
  rebuildDocs: 'docs:rebuild',
  addDocsFolder: 'docs:add-folder',
  importMcpServers: 'mcp:import',
  doctor: 'app:doctor',
  listWorkflows: 'workflow:list',
  runWorkflow: 'workflow:run',
  stopWorkflow: 'workflow:stop',
  draftWorkflow: 'workflow:draft',
  saveWorkflow: 'workflow:save',
  relaunchApp: 'app:relaunch',
} as const;

export type IpcChannel = (typeof CHANNELS)[keyof typeof CHANNELS];

/** The one channel main pushes on; the preload hands each message to the subscribers. */
export const EVENT_CHANNEL = 'app:event';

export interface AppInfoReply {
  name: string;
  version: string;
  platform: string;
}

/** The app the user was in when they summoned Deskpilot; every ask acts on it. */
export interface TargetApp {
  pid: number;
  app: string;
  /** The focused window's title, '' when unknown. */
  title: string;
}

/**
 * One line of `deskpilot doctor` and of the window's Diagnose panel. The figure is what was
 * measured, as the system names it (`DISPLAY=:99`, `3 apps, 2 with a tree`); the fix is English
 * for the CLI, and `fixKey` with `fixValues` is the same advice as a catalog key for the window.
 */
export interface DoctorCheck {
  id: DoctorCheckId;
  /** `skip`: not applicable here, or not checked because what it needs already failed. */
  status: 'ok' | 'fail' | 'skip';
  figure: string;
  fix?: string | undefined;
  fixKey?: string | undefined;
  fixValues?: Record<string, string | number> | undefined;
}

export const DOCTOR_CHECK_IDS = [
  'display',
  'a11y-bus',
  'a11y-enabled',
  'registry',
  'apps',
  'chromium',
  'window-manager',
  'input',
  'mac-accessibility',
  'mac-input-monitoring',
  'mac-screen-recording',
  'keyring',
  'provider',
  'provider-reachable',
  'provider-key',
  'provider-model',
  'provider-tools',
  'docs-index',
] as const;
export type DoctorCheckId = (typeof DOCTOR_CHECK_IDS)[number];

/** Every check that applies on this system, in order; `ok` when none failed. */
export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

export interface DoctorRequest {
  /** Also send the provider one tiny request (reachable, key, model, tool calling). */
  online?: boolean | undefined;
}

/** macOS needs Accessibility for reading and acting; elsewhere it is `not_needed`. */
export type PermissionState = 'granted' | 'denied' | 'not_needed';

export interface AppStatus {
  target: TargetApp | null;
  /** `registered: false` with `error` when another app holds the accelerator. */
  hotkey: { accelerator: string; registered: boolean; error?: string };
  accessibility: PermissionState;
  /**
   * The automation host (utilityProcess) that runs the core. `failed`: it crashed several times
   * in a row and is no longer restarted by itself; the next ask or restartHost() tries again.
   */
  host: 'starting' | 'running' | 'restarting' | 'failed';
  /** Why the host is `failed`, in words for the user. */
  hostError?: string;
  /** False until a model can be reached: the renderer shows the first-run view. */
  configured: boolean;
  /** Why `configured` is false (a PROVIDER_CONFIG message: no model chosen, an unknown DESKPILOT_PROVIDER…). */
  configError?: string;
  /** The UI's language, resolved from the setting and the system's languages. */
  language: Language;
  /** What `system` means here: the language the OS asks for. */
  systemLanguage: Language;
  /** What the empty chat offers to ask about the target app (absent until the host has looked). */
  suggestions?: SuggestionKind[];
  /**
   * The target app shows a bare window because it was started without accessibility (Chromium,
   * Electron): its name and the command relaunchApp() would start it with. Absent otherwise.
   */
  relaunch?: { app: string; command: string };
}

export interface AskRequest {
  text: string;
}

export interface AskReply {
  askId: string;
}

export interface ApproveRequest {
  /** The approval_request event's id. */
  id: string;
  decision: ApprovalDecision;
}

export interface OpenExternalRequest {
  url: string;
}

/** The documentation index as Settings shows it. */
export interface DocsStatus {
  files: number;
  skipped: number;
  sections: number;
  sizeBytes: number;
  /** Epoch ms of the last change to the index; null before the first. */
  updatedAt: number | null;
  /** Files done of all, while the folders are being indexed. */
  indexing: { done: number; total: number } | null;
  /** Embedded sections of all, for the configured embedding model; null without one. */
  embedding: { model: string; embedded: number; total: number } | null;
}

/** What main pushes to the renderer on EVENT_CHANNEL. */
export type AppEvent =
  | { type: 'agent'; event: AgentEvent }
  | { type: 'status'; status: AppStatus }
  /**
   * The window was just shown by the hotkey or the tray: focus the input. `view: 'settings'`
   * when the tray's Settings item opened it (absent means the chat).
   */
  | { type: 'shown'; view?: 'chat' | 'settings' }
  /** Esc or the hotkey hid the window. */
  | { type: 'hidden' }
  /** Something the user should know that is not part of an ask, e.g. the host restarted. */
  | { type: 'notice'; level: 'info' | 'error'; text: string }
  /** The documentation index changed or is being built. */
  | { type: 'docs'; status: DocsStatus }
  /** A workflow run's progress, approval or report (the Workflows view). */
  | { type: 'workflow'; event: WorkflowEvent };

/** Every reply crosses IPC as data: Electron reduces a thrown error to its message. */
export type IpcReply<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/** What the preload exposes as `window.deskpilot`. Every call rejects with a typed DeskpilotError. */
export interface DeskpilotApi {
  appInfo(): Promise<AppInfoReply>;
  status(): Promise<AppStatus>;
  /** Queues a question about the current target; the answer arrives as `agent` events. */
  ask(request: AskRequest): Promise<AskReply>;
  /** Stops the running ask and drops queued ones. */
  stop(): Promise<void>;
  approve(request: ApproveRequest): Promise<void>;
  /** The persisted chat, oldest first. */
  history(): Promise<ChatEntry[]>;
  clearHistory(): Promise<void>;
  settings(): Promise<PublicSettings>;
  updateSettings(patch: SettingsPatch): Promise<PublicSettings>;
  /** Opens System Settings → Privacy & Security → Accessibility (macOS only). */
  openPermissionSettings(): Promise<void>;
  /** Opens an https link in the system browser; anything else is refused. */
  openExternal(request: OpenExternalRequest): Promise<void>;
  hideWindow(): Promise<void>;
  /** Starts the automation host again after it was given up on (status `host: 'failed'`). */
  restartHost(): Promise<void>;
  /** The documentation index: size, last update, progress while indexing. */
  docsStatus(): Promise<DocsStatus>;
  /** Deletes the documentation index and builds it again in the background. */
  rebuildDocs(): Promise<void>;
  /** Asks for a folder with the system dialog and adds it to the indexed folders; the settings as they are after. */
  addDocsFolder(): Promise<PublicSettings>;
  /** Adds the servers of a Claude Desktop or Cursor config the user picks (system dialog); the settings after. */
  importMcpServers(): Promise<PublicSettings>;
  /** Runs the checks of `deskpilot doctor` (display, accessibility, input, keyring, provider, docs). */
  doctor(request: DoctorRequest): Promise<DoctorReport>;
  /** The saved workflows in the workflows folder. */
  listWorkflows(): Promise<WorkflowListReply>;
  /** Replays a saved workflow on the target app; progress arrives as `workflow` events. Risky steps ask through approve(). */
  runWorkflow(request: WorkflowRunRequest): Promise<WorkflowRunReply>;
  stopWorkflow(): Promise<void>;
  /** What "Save as workflow" would write for a completed ask: its steps and the parameters it offers. */
  draftWorkflow(request: WorkflowDraftRequest): Promise<WorkflowDraft>;
  /** Writes the ask's verified actions to the workflows folder. */
  saveWorkflow(request: WorkflowSaveRequest): Promise<WorkflowSummary>;
  /** Quits the target app gracefully and starts it again with accessibility (status.relaunch); the user agreed first. */
  relaunchApp(): Promise<void>;
  /** Subscribes to pushed events; returns the unsubscribe function. */
  onEvent(listener: (event: AppEvent) => void): () => void;
}
