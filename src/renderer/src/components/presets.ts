import type { PresetName } from '../../../shared/settings';

export const PRESET_LABELS: Record<PresetName, string> = {
  openrouter: 'OpenRouter',
  openai: 'OpenAI',
  ollama: 'Ollama (on this computer)',
  lmstudio: 'LM Studio (on this computer)',
  gemini: 'Google Gemini',
};

/** Local servers take no key. */
export function needsApiKey(preset: PresetName): boolean {
  return preset !== 'ollama' && preset !== 'lmstudio';
}
