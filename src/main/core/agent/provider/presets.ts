import type { PresetName } from '../../../../shared/settings';

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

export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  openrouter: {
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    defaultModel: 'openai/gpt-4o-mini',
    local: false,
  },
  openai: {
    label: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    keyEnv: 'OPENAI_API_KEY',
    defaultModel: 'gpt-4o-mini',
    local: false,
  },
  ollama: {
    label: 'Ollama',
    baseUrl: 'http://localhost:11434/v1',
    defaultModel: 'llama3.2',
    local: true,
    startHint: 'Start Ollama with `ollama serve` and pull a model with `ollama pull llama3.2`.',
  },
  lmstudio: {
    label: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    local: true,
    startHint: "Open LM Studio, load a model and start its local server (Developer tab, port 1234).",
  },
  gemini: {
    label: 'Gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    keyEnv: 'GEMINI_API_KEY',
    defaultModel: 'gemini-2.0-flash',
    local: false,
  },
};

/** OpenRouter ranks apps by these; other services ignore them, so only OpenRouter gets them. */
export const OPENROUTER_SITE = { url: 'https://github.com/deskpilot/deskpilot', title: 'Deskpilot' } as const;

export function isPresetName(value: string): value is PresetName {
  return Object.hasOwn(PRESETS, value);
}
