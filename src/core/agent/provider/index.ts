export { OpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible-provider';
export {
  choosePreset,
  resolveProviderConfig,
  resolveProviderConfigProbing,
  isLoopback,
  type Environment,
  type ProviderSettings,
  type ResolvedProviderConfig,
} from './config';
export { PRESETS, isPresetName, type Preset, type PresetName } from './presets';
export { parseHeaderList } from './header-list';
export { parseRetryAfter } from './map-error';
export type { Provider, ProviderMessage, ProviderRequest, ProviderTool, ProviderUsage, StreamPart } from './types';
export { PROBE_TIMEOUT_MS, defaultLocalServers, probeLocalServers, type LocalServer, type ProbeOptions, type ProbeResult } from './local-probe';
export { rejectsImages, visionFromEnv, type VisionMode } from './vision';
