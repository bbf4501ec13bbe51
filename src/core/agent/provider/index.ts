export { OpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible-provider';
export {
  choosePreset,
  resolveProviderConfig,
  resolveProviderConfigProbing,
  isLoopback,
  type Environment,
  type ProviderSettings,
  type ResolvedProviderConfig,
} from '../../provider-config/config';
export { PRESETS, isPresetName, type Preset, type PresetName } from '../../provider-config/presets';
export { parseHeaderList } from '../../provider-config/header-list';
export { parseRetryAfter } from './map-error';
export type { Provider, ProviderMessage, ProviderRequest, ProviderTool, ProviderUsage, StreamPart } from './types';
export {
  PROBE_TIMEOUT_MS,
  defaultLocalServers,
  probeLocalServers,
  type LocalServer,
  type ProbeOptions,
  type ProbeResult,
} from '../../provider-config/local-probe';
export { rejectsImages, visionFromEnv, type VisionMode } from './vision';
