import type { Schema } from 'electron-store';
import { MAX_TOOL_ALLOWANCES, type ToolAllowance } from '../../shared/tool-allowances';
import { ANSWER_LANGUAGE_CHOICES, LANGUAGE_CHOICES, type AnswerLanguageChoice, type LanguageChoice } from '../../shared/i18n/i18n';
import {
  APPROVAL_POLICIES,
  MAX_DOCS_FOLDERS,
  MAX_PATH_CHARS,
  PRESET_NAMES,
  VISION_MODES,
  type ApprovalPolicy,
  type PresetName,
  type VisionSetting,
} from '../../shared/settings';

export interface WindowBounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Everything main persists about the user's choices. The key is only ever here encrypted. */
export interface StoredSettings {
  preset: PresetName;
  baseUrl: string;
  model: string;
  /**
   * Extra headers in clear, as earlier versions stored them: read until they can be moved
   * into headersEncrypted, and '' from then on. Nothing writes a value here any more.
   */
  headers: string;
  /** The extra headers (`name: value; …`), encrypted like the key: they may authenticate. */
  headersEncrypted: string;
  /** safeStorage.encryptString output as base64; '' when no key is stored. */
  apiKeyEncrypted: string;
  hotkey: string;
  approvalPolicy: ApprovalPolicy;
  openAtLogin: boolean;
  /** "Never take my pointer or keyboard". */
  keepDevices: boolean;
  historyLimit: number;
  docsFolders: string[];
  docsAppHelp: boolean;
  docsManPages: boolean;
  docsUserFolders: boolean;
  embeddingModel: string;
  language: LanguageChoice;
  answerLanguage: AnswerLanguageChoice;
  /** The user's MCP servers (`mcpServers` as JSON), encrypted: their env and headers may hold tokens. '' for none. */
  mcpServersEncrypted: string;
  /** MCP tools and servers allowed to run without asking (tool-allowances.ts): names only, no secret. */
  toolAllowances: ToolAllowance[];
  vision: VisionSetting;
  /** Absent until the user moved or resized the window. */
  windowBounds?: WindowBounds;
}

/**
 * Option+Space on macOS (Electron's Alt is the Option key). Elsewhere Control+Alt+Space: Alt+Space
 * opens the window menu in GNOME, KDE, Xfce and Windows, and Super+Space switches keyboard layouts
 * in GNOME; none of them binds Control+Alt+Space by default.
 */
export function defaultHotkey(platform: string): string {
  return platform === 'darwin' ? 'Alt+Space' : 'Control+Alt+Space';
}
export const DEFAULT_HISTORY_LIMIT = 500;

export const SETTINGS_DEFAULTS: Omit<StoredSettings, 'windowBounds'> = {
  preset: 'openrouter',
  baseUrl: '',
  model: '',
  headers: '',
  headersEncrypted: '',
  apiKeyEncrypted: '',
  hotkey: defaultHotkey(process.platform),
  approvalPolicy: 'confirm-risky',
  openAtLogin: false,
  keepDevices: false,
  historyLimit: DEFAULT_HISTORY_LIMIT,
  docsFolders: [],
  docsAppHelp: true,
  docsManPages: true,
  docsUserFolders: true,
  embeddingModel: '',
  language: 'system',
  answerLanguage: 'auto',
  mcpServersEncrypted: '',
  toolAllowances: [],
  vision: 'auto',
};

const integer = { type: 'integer' } as const;
const allowanceName = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const SETTINGS_SCHEMA: Schema<StoredSettings> = {
  preset: { type: 'string', enum: [...PRESET_NAMES] },
  baseUrl: { type: 'string', maxLength: 2000 },
  model: { type: 'string', maxLength: 200 },
  headers: { type: 'string', maxLength: 4000 },
  // 4000 characters of headers, encrypted (a few dozen bytes more) and in base64 (4/3).
  headersEncrypted: { type: 'string', maxLength: 12_000 },
  apiKeyEncrypted: { type: 'string', maxLength: 8000 },
  hotkey: { type: 'string', minLength: 1, maxLength: 100 },
  approvalPolicy: { type: 'string', enum: [...APPROVAL_POLICIES] },
  openAtLogin: { type: 'boolean' },
  keepDevices: { type: 'boolean' },
  historyLimit: { type: 'integer', minimum: 0, maximum: 10_000 },
  docsFolders: { type: 'array', items: { type: 'string', maxLength: MAX_PATH_CHARS }, maxItems: MAX_DOCS_FOLDERS },
  docsAppHelp: { type: 'boolean' },
  docsManPages: { type: 'boolean' },
  docsUserFolders: { type: 'boolean' },
  embeddingModel: { type: 'string', maxLength: 200 },
  language: { type: 'string', enum: [...LANGUAGE_CHOICES] },
  answerLanguage: { type: 'string', enum: [...ANSWER_LANGUAGE_CHOICES] },
  mcpServersEncrypted: { type: 'string', maxLength: 400_000 },
  toolAllowances: {
    type: 'array',
    maxItems: MAX_TOOL_ALLOWANCES,
    items: {
      type: 'object',
      properties: { server: allowanceName, tool: allowanceName, app: allowanceName },
      required: ['server'],
      additionalProperties: false,
    },
  },
  vision: { type: 'string', enum: [...VISION_MODES] },
  windowBounds: {
    type: 'object',
    properties: { x: integer, y: integer, width: { type: 'integer', minimum: 1 }, height: { type: 'integer', minimum: 1 } },
    required: ['x', 'y', 'width', 'height'],
  },
};

/** What SettingsService needs from electron-store; ElectronStore<StoredSettings> fits it. */
export interface SettingsStore {
  get<Key extends keyof StoredSettings>(key: Key): StoredSettings[Key];
  set<Key extends keyof StoredSettings>(key: Key, value: StoredSettings[Key]): void;
  /** Several keys at once: electron-store checks the schema for the whole result, then writes once or not at all. */
  set(values: Partial<StoredSettings>): void;
}
