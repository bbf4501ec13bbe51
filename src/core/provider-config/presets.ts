import { PRESET_INFO, type PresetName } from '../../shared/settings';

/** The OpenAI-compatible endpoints Deskpilot knows by name; the names are shared with the settings view. */
export type { PresetName };

export interface Preset {
  label: string;
  baseUrl: string;
  /** The variable users of this service already have set; read after DESKPILOT_API_KEY. */
  keyEnv?: string;
  /** Used when neither settings nor DESKPILOT_MODEL name one; local servers have no safe default. */
  defaultModel?: string;
  /** Local servers: a connection failure gets a "start it" hint instead of a network one. */
  local: boolean;
  startHint?: string;
}

// The label and the local flag come from PRESET_INFO, so the settings view says the same.
export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  openrouter: {
    ...PRESET_INFO.openrouter,
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    defaultModel: 'openai/gpt-4o-mini',
  },
  openai: {
    ...PRESET_INFO.openai,
    baseUrl: 'https://api.openai.com/v1',
    keyEnv: 'OPENAI_API_KEY',
    defaultModel: 'gpt-4o-mini',
  },
  ollama: {
    ...PRESET_INFO.ollama,
    baseUrl: 'http://localhost:11434/v1',
    defaultModel: 'llama3.2',
    startHint: 'Start Ollama with `ollama serve` and pull a model with `ollama pull llama3.2`.',
  },
  lmstudio: {
    ...PRESET_INFO.lmstudio,
    baseUrl: 'http://localhost:1234/v1',
    startHint: 'Open LM Studio, load a model and start its local server (Developer tab, port 1234).',
  },
  gemini: {
    ...PRESET_INFO.gemini,
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    keyEnv: 'GEMINI_API_KEY',
    defaultModel: 'gemini-2.0-flash',
  },
};

/** OpenRouter ranks apps by these; other services ignore them, so only OpenRouter gets them. */
export const OPENROUTER_SITE = { url: 'https://github.com/deskpilot/deskpilot', title: 'Deskpilot' } as const;

export function isPresetName(value: string): value is PresetName {
  return Object.hasOwn(PRESETS, value);
}
