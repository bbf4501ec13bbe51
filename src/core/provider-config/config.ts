import { DeskpilotError } from '../../shared/errors';
import type { Environment } from './environment';
import { parseHeaderList } from './header-list';
import { PROBE_TIMEOUT_MS, listServerModels, ollamaBaseUrl, probeLocalServers, type ProbeOptions, type ProbeResult } from './local-probe';
import { OPENROUTER_SITE, PRESETS, isPresetName, type Preset, type PresetName } from './presets';

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

export type { Environment };

export interface ResolvedProviderConfig {
  preset: PresetName;
  presetInfo: Preset;
  baseUrl: string;
  model: string;
  /** Undefined for local servers that take none. */
  apiKey: string | undefined;
  headers: Record<string, string>;
  /**
   * Who answers, as errors and `doctor` name it: the preset's name ("OpenRouter", "Ollama at
   * http://192.168.1.5:11434/v1"), or "the server at <url>" for a base URL of the user's own
   * (its user:password part never shown).
   */
  label: string;
  /** A base URL of the user's own that no preset chose: its own provider, with no preset default model or key variable. */
  custom: boolean;
}

const DEFAULT_PRESET: PresetName = 'openrouter';

/** Cloud presets in the order a key found in the environment picks them when no preset was chosen. */
const KEYED_PRESETS: readonly PresetName[] = ['openrouter', 'openai', 'gemini'];

/**
 * Which preset: DESKPILOT_PROVIDER, else the settings, else the first cloud preset whose own
 * key variable is set (OPENAI_API_KEY alone means OpenAI), else OpenRouter. `chosen` is
 * false when nobody picked one, so a missing key may still be met by a local server.
 */
export function choosePreset(settings: ProviderSettings, env: Environment): { preset: PresetName; chosen: boolean } {
  const fromEnv = nonEmpty(env['DESKPILOT_PROVIDER'])?.toLowerCase();
  if (fromEnv !== undefined) {
    if (!isPresetName(fromEnv)) {
      throw new DeskpilotError('PROVIDER_CONFIG', `DESKPILOT_PROVIDER is '${fromEnv}', which is not a preset; use one of ${Object.keys(PRESETS).join(', ')}.`);
    }
    return { preset: fromEnv, chosen: true };
  }
  if (settings.preset !== undefined) return { preset: settings.preset, chosen: true };
  const keyed = KEYED_PRESETS.find((name) => {
    const variable = PRESETS[name].keyEnv;
    return variable !== undefined && nonEmpty(env[variable]) !== undefined;
  });
  return { preset: keyed ?? DEFAULT_PRESET, chosen: false };
}

/**
 * Settings first, environment on top, so a shell can override the app without touching
 * its stored settings. Called on every request so a changed variable applies at once.
 * Synchronous and without network: resolveProviderConfigProbing also looks for a local server.
 */
export function resolveProviderConfig(settings: ProviderSettings, env: Environment): ResolvedProviderConfig {
  const { preset, chosen } = choosePreset(settings, env);
  const presetInfo = PRESETS[preset];
  const given = nonEmpty(env['DESKPILOT_BASE_URL']) ?? nonEmpty(settings.baseUrl);
  // Ollama's own variable says where it listens; it counts only when Ollama was chosen.
  const presetBase = preset === 'ollama' && nonEmpty(env['OLLAMA_HOST']) !== undefined ? ollamaBaseUrl(env) : presetInfo.baseUrl;
  checkUrl(given ?? presetBase);
  // `https://user:password@host/v1`: fetch refuses a URL with credentials, and they must never be printed, so they become a Basic header.
  const { url: baseUrl, basic } = splitCredentials(given ?? presetBase);
  // A self-hosted server (llama.cpp, vLLM, a LAN Ollama) named by its URL alone is nobody's preset.
  const own = given !== undefined && !sameUrl(given, presetInfo.baseUrl);
  const custom = own && !chosen;
  const label = labelFor(presetInfo, baseUrl, own);
  const model = nonEmpty(env['DESKPILOT_MODEL']) ?? nonEmpty(settings.model) ?? (custom ? undefined : presetInfo.defaultModel);
  if (model === undefined) {
    throw new DeskpilotError(
      'PROVIDER_CONFIG',
      `No model chosen for ${label}. Set one in Settings → Provider → Model, or set DESKPILOT_MODEL to the name of the model ${custom ? 'it serves (its /models lists them)' : 'you loaded'}.`,
      { data: { server: label } },
    );
  }
  // A key meant for a service (OPENROUTER_API_KEY) never goes to a server that only shares the protocol.
  const keyEnv = custom ? undefined : presetInfo.keyEnv;
  const apiKey = nonEmpty(env['DESKPILOT_API_KEY']) ?? (keyEnv === undefined ? undefined : nonEmpty(env[keyEnv])) ?? nonEmpty(settings.apiKey);
  const headers = withBasic(resolveHeaders(preset, settings, env, custom), apiKey === undefined ? basic : undefined);
  // A gateway may authenticate through DESKPILOT_HEADERS instead (Azure's `api-key`, a proxy's bearer).
  const headerAuth = Object.keys(headers).some((name) => ['authorization', 'api-key'].includes(name.toLowerCase()));
  // A server of the user's own may take no key at all; it says so itself when it wants one.
  if (apiKey === undefined && !headerAuth && !own && !presetInfo.local && !isLoopback(baseUrl)) {
    throw new DeskpilotError('PROVIDER_CONFIG', missingKeyMessage(presetInfo));
  }
  return { preset, presetInfo, baseUrl, model, apiKey, headers, label, custom };
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/** How errors and doctor name the server: never with the URL's user:password part. */
function labelFor(preset: Preset, baseUrl: string, own: boolean): string {
  const shown = displayUrl(baseUrl);
  if (own) return `the server at ${shown}`;
  return sameUrl(baseUrl, preset.baseUrl) ? preset.label : `${preset.label} at ${shown}`;
}

/**
 * Anything that says which endpoint to use: a key for any service, a base URL, or an
 * authorization header. Without any of these (and no preset chosen), Deskpilot looks for a
 * local model server instead of failing on a missing OpenRouter key.
 */
function somethingConfigured(settings: ProviderSettings, env: Environment): boolean {
  const keyVariables = ['DESKPILOT_API_KEY', ...Object.values(PRESETS).flatMap((preset) => (preset.keyEnv === undefined ? [] : [preset.keyEnv]))];
  if (keyVariables.some((name) => nonEmpty(env[name]) !== undefined)) return true;
  if (nonEmpty(settings.apiKey) !== undefined || nonEmpty(settings.baseUrl) !== undefined || nonEmpty(env['DESKPILOT_BASE_URL']) !== undefined) return true;
  const headerText = [
    typeof settings.headers === 'string' ? settings.headers : Object.keys(settings.headers ?? {}).join(';'),
    env['DESKPILOT_HEADERS'] ?? '',
  ].join(';');
  return /(^|;)\s*(authorization|api-key)\s*(:|;|$)/i.test(headerText);
}

/**
 * resolveProviderConfig, plus: when nobody chose a preset and no key or endpoint is set
 * anywhere, the first local server that answers (Ollama, then LM Studio) is used, with its
 * first model unless one is set. Only when none answers does it fail with PROVIDER_CONFIG,
 * saying every way to configure one.
 */
export async function resolveProviderConfigProbing(
  settings: ProviderSettings,
  env: Environment,
  probe: ProbeOptions | ((env: Environment) => Promise<ProbeResult>) = {},
): Promise<ResolvedProviderConfig> {
  if (choosePreset(settings, env).chosen || somethingConfigured(settings, env)) {
    const model = await discoverModel(settings, env, probe);
    return resolveProviderConfig(model === undefined ? settings : { ...settings, model }, env);
  }
  const { found, empty } = typeof probe === 'function' ? await probe(env) : await probeLocalServers(env, probe);
  if (found === undefined) throw new DeskpilotError('PROVIDER_CONFIG', noProviderMessage(empty.map((server) => PRESETS[server.preset].label)));
  const model = nonEmpty(env['DESKPILOT_MODEL']) ?? nonEmpty(settings.model) ?? found.models[0];
  return resolveProviderConfig({ ...settings, preset: found.server.preset, baseUrl: found.server.baseUrl, ...(model === undefined ? {} : { model }) }, env);
}

/**
 * A server of the user's own with no model named: the one its /models lists first (llama.cpp
 * and vLLM serve one). Undefined when a model is set, the provider is a preset, or it lists none;
 * resolveProviderConfig then says a model is needed.
 */
async function discoverModel(
  settings: ProviderSettings,
  env: Environment,
  probe: ProbeOptions | ((env: Environment) => Promise<ProbeResult>),
): Promise<string | undefined> {
  if (nonEmpty(env['DESKPILOT_MODEL']) !== undefined || nonEmpty(settings.model) !== undefined) return undefined;
  let config: ResolvedProviderConfig;
  try {
    config = resolveProviderConfig({ ...settings, model: 'probe' }, env);
  } catch {
    return undefined;
  }
  if (!config.custom) return undefined;
  const headers: Record<string, string> = { ...config.headers, ...(config.apiKey === undefined ? {} : { authorization: `Bearer ${config.apiKey}` }) };
  const options = typeof probe === 'function' ? {} : probe;
  const models = await listServerModels(config.baseUrl, {
    headers,
    timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
    fetch: options.fetch ?? globalThis.fetch,
  });
  return models?.[0];
}

function noProviderMessage(withoutModels: string[]): string {
  const empty = withoutModels.length === 0 ? '' : ` (${withoutModels.join(' and ')} answered but has no model loaded: pull or load one)`;
  return (
    'No model provider is configured, and no local model server answered' +
    empty +
    '. ' +
    'Set DESKPILOT_API_KEY (or OPENROUTER_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY) and optionally DESKPILOT_PROVIDER ' +
    `(${Object.keys(PRESETS).join(', ')}), DESKPILOT_MODEL and DESKPILOT_BASE_URL; or add a key in Settings → Provider; ` +
    'or start a local server: Ollama (`ollama serve`, port 11434) or LM Studio (its local server, port 1234).'
  );
}

function resolveHeaders(preset: PresetName, settings: ProviderSettings, env: Environment, custom: boolean): Record<string, string> {
  const site =
    preset === 'openrouter' && !custom
      ? { 'HTTP-Referer': settings.siteUrl ?? OPENROUTER_SITE.url, 'X-Title': settings.siteTitle ?? OPENROUTER_SITE.title }
      : {};
  const fromSettings = typeof settings.headers === 'string' ? parseHeaderList(settings.headers, 'the headers setting') : (settings.headers ?? {});
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

function splitCredentials(url: string): { url: string; basic?: string } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url };
  const basic = Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64');
  parsed.username = '';
  parsed.password = '';
  // URL keeps a trailing slash the user did not write only for an empty path; the rest is as given.
  return { url: parsed.href, basic };
}

function withBasic(headers: Record<string, string>, basic: string | undefined): Record<string, string> {
  if (basic === undefined || Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return headers;
  return { ...headers, Authorization: `Basic ${basic}` };
}

/** A URL as printed: a `user:password@` part becomes `***@`. */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1***@');
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
