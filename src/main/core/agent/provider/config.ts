import { DeskpilotError } from '../../../../shared/errors';
import { parseHeaderList } from './header-list';
import { OPENROUTER_SITE, PRESETS, type Preset, type PresetName } from './presets';

/** What the settings store holds for the provider; everything is optional. */
export interface ProviderSettings {
  preset?: PresetName;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  /** `name: value; name2: value2`, or already split. */
  headers?: string | Record<string, string>;
  /** OpenRouter's HTTP-Referer and X-Title, which it uses for app rankings. */
  siteUrl?: string;
  siteTitle?: string;
}

export type Environment = Readonly<Record<string, string | undefined>>;

export interface ResolvedProviderConfig {
  preset: PresetName;
  presetInfo: Preset;
  baseUrl: string;
  model: string;
  /** Undefined for local servers that take none. */
  apiKey: string | undefined;
  headers: Record<string, string>;
}

const DEFAULT_PRESET: PresetName = 'openrouter';

/**
 * Settings first, environment on top, so a shell can override the app without touching
 * its stored settings. Called on every request so a changed variable applies at once.
 */
export function resolveProviderConfig(settings: ProviderSettings, env: Environment): ResolvedProviderConfig {
  const preset = settings.preset ?? DEFAULT_PRESET;
  const presetInfo = PRESETS[preset];
  const baseUrl = nonEmpty(env['DESKPILOT_BASE_URL']) ?? nonEmpty(settings.baseUrl) ?? presetInfo.baseUrl;
  checkUrl(baseUrl);
  const model = nonEmpty(env['DESKPILOT_MODEL']) ?? nonEmpty(settings.model) ?? presetInfo.defaultModel;
  if (model === undefined) {
    throw new DeskpilotError(
      'PROVIDER_CONFIG',
      `No model chosen for ${presetInfo.label}. Set one in Settings → Provider → Model, or set DESKPILOT_MODEL to the name of the model you loaded.`,
    );
  }
  const apiKey =
    nonEmpty(env['DESKPILOT_API_KEY']) ??
    (presetInfo.keyEnv === undefined ? undefined : nonEmpty(env[presetInfo.keyEnv])) ??
    nonEmpty(settings.apiKey);
  const headers = resolveHeaders(preset, settings, env);
  // A gateway may authenticate through DESKPILOT_HEADERS instead (Azure's `api-key`, a proxy's bearer).
  const headerAuth = Object.keys(headers).some((name) => ['authorization', 'api-key'].includes(name.toLowerCase()));
  if (apiKey === undefined && !headerAuth && !presetInfo.local && !isLoopback(baseUrl)) {
    throw new DeskpilotError('PROVIDER_CONFIG', missingKeyMessage(presetInfo));
  }
  return { preset, presetInfo, baseUrl, model, apiKey, headers };
}

function resolveHeaders(preset: PresetName, settings: ProviderSettings, env: Environment): Record<string, string> {
  const site =
    preset === 'openrouter'
      ? { 'HTTP-Referer': settings.siteUrl ?? OPENROUTER_SITE.url, 'X-Title': settings.siteTitle ?? OPENROUTER_SITE.title }
      : {};
  const fromSettings =
    typeof settings.headers === 'string' ? parseHeaderList(settings.headers, 'the headers setting') : (settings.headers ?? {});
  const envText = nonEmpty(env['DESKPILOT_HEADERS']);
  const fromEnv = envText === undefined ? {} : parseHeaderList(envText, 'DESKPILOT_HEADERS');
  return mergeHeaders(site, fromSettings, fromEnv);
}

/** Header names are case-insensitive, so a later `x-title` must replace an earlier `X-Title`. */
function mergeHeaders(...layers: Record<string, string>[]): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer)) merged.set(name.toLowerCase(), [name, value]);
  }
  return Object.fromEntries(merged.values());
}

function missingKeyMessage(preset: Preset): string {
  const variables = ['DESKPILOT_API_KEY', ...(preset.keyEnv === undefined ? [] : [preset.keyEnv])].join(' or ');
  return (
    `No API key for ${preset.label}. Add one in Settings → Provider → API key, or set the ${variables} environment variable. ` +
    'To use a local model without a key, choose the Ollama or LM Studio preset.'
  );
}

function checkUrl(baseUrl: string): void {
  let protocol: string;
  try {
    protocol = new URL(baseUrl).protocol;
  } catch (error) {
    throw new DeskpilotError('PROVIDER_CONFIG', 'The provider base URL (Settings → Provider or DESKPILOT_BASE_URL) is not a valid URL.', { cause: error });
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new DeskpilotError('PROVIDER_CONFIG', `The provider base URL must start with http:// or https://, not ${protocol}`);
  }
}

/** A server on this machine (a test server, a self-hosted proxy) needs no key. */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
