/**
 * The values settings choose from, which the core reads too. The settings themselves are declared
 * once in settings-schema.ts; settings-derive.ts gives their types (PublicSettings, SettingsPatch).
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

/** Most folders documentation search indexes, and the longest path it takes. */
export const MAX_DOCS_FOLDERS = 50;
export const MAX_PATH_CHARS = 4096;
