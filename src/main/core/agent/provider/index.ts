export { OpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible-provider';
export { resolveProviderConfig, isLoopback, type Environment, type ProviderSettings, type ResolvedProviderConfig } from './config';
export { PRESETS, isPresetName, type Preset, type PresetName } from './presets';
export { parseHeaderList } from './header-list';
export { parseRetryAfter } from './map-error';
export type { Provider, ProviderMessage, ProviderRequest, ProviderTool, ProviderUsage, StreamPart } from './types';
