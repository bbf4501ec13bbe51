import type { AnswerLanguageChoice, LanguageChoice } from './i18n/i18n';
import type { ToolAllowance } from './tool-allowances';

/**
 * The user's settings as the renderer may see them. The API key and the header values are never
 * part of it: the renderer only learns whether a key is set and which headers are. Main keeps the full record (electron-store, key
 * encrypted with safeStorage) and core reads the provider part from it.
 */
export const PRESET_NAMES = ['openrouter', 'openai', 'ollama', 'lmstudio', 'gemini'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * What the settings view and the core both say about a preset: its name for people, and whether
 * it is a server on this computer (which takes no API key). The core's PRESETS reads these.
 */
export const PRESET_INFO: Readonly<Record<PresetName, { label: string; local: boolean; keyUrl?: string; modelRequired?: boolean }>> = {
  openrouter: { label: 'OpenRouter', local: false, keyUrl: 'https://openrouter.ai/keys' },
  openai: { label: 'OpenAI', local: false, keyUrl: 'https://platform.openai.com/api-keys' },
  ollama: { label: 'Ollama', local: true },
  // LM Studio serves whatever model the user loaded, so there is no default to fall back on.
  lmstudio: { label: 'LM Studio', local: true, modelRequired: true },
  gemini: { label: 'Google Gemini', local: false, keyUrl: 'https://aistudio.google.com/app/apikey' },
};

/** How much the agent may do without asking the user. */
export const APPROVAL_POLICIES = ['auto', 'confirm-risky', 'confirm-all'] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

/**
 * The user's answer: this call only; this tool on this app (for the rest of the conversation,
 * or until revoked for a tool of an MCP server); or no. A tool of an MCP server can also be
 * allowed everywhere, and its whole server on this app or everywhere (see tool-allowances.ts).
 */
export const APPROVAL_DECISIONS = ['allow_once', 'allow_app', 'allow_always', 'allow_server_app', 'allow_server_always', 'deny'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** Whether images from tools (screenshots) go to the model: try and fall back, always, or never. */
export const VISION_MODES = ['auto', 'on', 'off'] as const;
export type VisionSetting = (typeof VISION_MODES)[number];

export interface PublicSettings {
  preset: PresetName;
  /** Empty means the preset's own URL. */
  baseUrl: string;
  /** Empty means the preset's default model. */
  model: string;
  /**
   * The names of the stored extra request headers. Their values never reach the renderer:
   * an `Authorization` or `api-key` header is a credential, stored encrypted like the key.
   */
  headerNames: string[];
  hasApiKey: boolean;
  /** An Electron accelerator, e.g. `Alt+Space`. */
  hotkey: string;
  approvalPolicy: ApprovalPolicy;
  openAtLogin: boolean;
  /** How many chat entries are kept on disk. */
  historyLimit: number;
  /** Folders of the user's own documents that documentation search indexes. */
  docsFolders: string[];
  /** Documentation search sources, each on unless turned off: the target app's help, its man pages, the folders. */
  docsAppHelp: boolean;
  docsManPages: boolean;
  docsUserFolders: boolean;
  /** The provider's embedding model for documentation search; empty means the preset's, if it has one. */
  embeddingModel: string;
  /** The UI's language: the system's, or one fixed. */
  language: LanguageChoice;
  /** The language answers are in: the question's own (`auto`), or one fixed apart from the UI's. */
  answerLanguage: AnswerLanguageChoice;
  /** The MCP servers as JSON for the editor, every env and header value shown as STORED_SECRET; '' for none. */
  mcpServers: string;
  /** MCP tools and servers the user allowed to run without asking; Settings revokes them. */
  toolAllowances: ToolAllowance[];
  vision: VisionSetting;
  /**
   * "Never take my pointer or keyboard": steps that could only be done with synthetic input
   * (moving the pointer, typing keys, raising a window) are not run without the user's word.
   * Absent means off.
   */
  keepDevices?: boolean;
  /** Names of settings an environment variable overrides right now (DESKPILOT_MODEL → `model`); the UI shows them read-only. */
  envOverrides: (keyof SettingsPatch)[];
  /** For each of those, the variable that overrides it, so the window can name it. */
  envVariables: Partial<Record<keyof SettingsPatch, string>>;
}

/**
 * A change from the settings view. `apiKey: null` deletes the stored key and `headers: null` the
 * stored headers; an omitted field stays as it is. `headers` replaces all of them at once.
 */
export interface SettingsPatch {
  preset?: PresetName;
  baseUrl?: string;
  model?: string;
  /** Extra request headers as `name: value; name2: value2`. */
  headers?: string | null;
  apiKey?: string | null;
  hotkey?: string;
  approvalPolicy?: ApprovalPolicy;
  openAtLogin?: boolean;
  historyLimit?: number;
  docsFolders?: string[];
  docsAppHelp?: boolean;
  docsManPages?: boolean;
  docsUserFolders?: boolean;
  embeddingModel?: string;
  language?: LanguageChoice;
  answerLanguage?: AnswerLanguageChoice;
  /** The `mcpServers` JSON as edited; STORED_SECRET keeps a stored value. '' removes them all. */
  mcpServers?: string;
  /** The whole list, as the user left it (a revoke sends the list without that allowance). */
  toolAllowances?: ToolAllowance[];
  vision?: VisionSetting;
  keepDevices?: boolean;
}

/** Most folders documentation search indexes, and the longest path it takes. */
export const MAX_DOCS_FOLDERS = 50;
export const MAX_PATH_CHARS = 4096;
