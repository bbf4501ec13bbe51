import { DeskpilotError, ValidationError } from '../../shared/errors';
import { resolveLanguage, type Language } from '../../shared/i18n/i18n';
import { parseMcpServers, redactMcpServers, restoreMcpSecrets, type McpServers } from '../../shared/mcp-servers';
import { VISION_MODES, type VisionSetting } from '../../shared/settings';
import {
  PLAIN_NAMES,
  hostSettingsOf,
  type HostSettings,
  type PlainName,
  type PlainValues,
  type PublicSettings,
  type SecretViews,
  type SettingsPatchInput,
} from '../../shared/settings-derive';
import { withAllowance, type ToolAllowance } from '../../shared/tool-allowances';
// The provider's pure config modules only: main never loads the openai SDK or the Agent.
import { choosePreset, resolveProviderConfig, type Environment } from '../../core/provider-config/config';
import { parseHeaderList } from '../../core/provider-config/header-list';
import { PRESETS, type PresetName } from '../../core/provider-config/presets';
import { providerSettings } from '../../core/provider-config/provider-settings';
import { decryptKey, encryptKey, keyStorageProblem, type SafeStorageLike } from './key-vault';
import type { SettingsStore, StoredSettings, WindowBounds } from './settings-store';

export interface SettingsServiceOptions {
  store: SettingsStore;
  safeStorage: SafeStorageLike;
  /** Read on every call, like the provider does: a variable set later still wins. */
  env: () => Environment;
  platform: string;
  /** The OS's preferred languages, most wanted first (app.getPreferredSystemLanguages()). */
  systemLanguages?: () => readonly string[];
}

type EnvOverride = PublicSettings['envOverrides'][number];

export type { SettingsPatchInput };

/** Values tidied before they are stored: a pasted model name's spaces, a folder added twice. */
const TIDY: { [Key in PlainName]?: (value: PlainValues[Key]) => PlainValues[Key] } = {
  model: (value) => value.trim(),
  embeddingModel: (value) => value.trim(),
  docsFolders: (value) => [...new Set(value)],
};

/**
 * The user's settings: stored through electron-store, the API key encrypted with safeStorage,
 * and the DESKPILOT_* variables on top. The renderer gets `publicSettings()`, which holds the
 * stored values (never the key, never a variable's value, since DESKPILOT_HEADERS may carry a
 * credential) and names the fields a variable overrides.
 */
export class SettingsService {
  private readonly options: SettingsServiceOptions;

  constructor(options: SettingsServiceOptions) {
    this.options = options;
    this.encryptLegacyHeaders();
  }

  get<Key extends keyof StoredSettings>(key: Key): StoredSettings[Key] {
    return this.options.store.get(key);
  }

  publicSettings(): PublicSettings {
    const overrides = this.envOverrides();
    return {
      ...this.plainValues(),
      ...this.secretViews(),
      envOverrides: Object.keys(overrides) as EnvOverride[],
      envVariables: overrides,
    };
  }

  /** Every setting that is not a secret, as stored. */
  private plainValues(): PlainValues {
    const { store } = this.options;
    return Object.fromEntries(PLAIN_NAMES.map((name) => [name, store.get(name)])) as PlainValues;
  }

  /** What the window may know of each secret instead of its value. */
  private secretViews(): SecretViews {
    return {
      headerNames: this.headerNames(),
      hasApiKey: this.options.store.get('apiKeyEncrypted') !== '',
      mcpServers: this.mcpServersForEditor(),
    };
  }

  /**
   * Applies a validated patch; the key and the headers are encrypted first, and refused if they
   * cannot be. `beforeWrite` runs after every check and before the first write; if it throws,
   * nothing is stored.
   */
  update(patch: SettingsPatchInput, beforeWrite?: () => void): PublicSettings {
    const { store, safeStorage, platform } = this.options;
    // Everything that can fail runs before anything is written, so a refused patch changes nothing.
    const headers = typeof patch.headers === 'string' ? patch.headers.trim() : patch.headers;
    if (typeof headers === 'string') parseHeaderList(headers, 'the headers setting');
    const encryptedHeaders = typeof headers === 'string' && headers !== '' ? encryptKey(safeStorage, platform, headers, 'headers') : undefined;
    const encrypted = typeof patch.apiKey === 'string' ? encryptKey(safeStorage, platform, patch.apiKey) : undefined;
    const mcpServers = patch.mcpServers === undefined ? undefined : this.encryptMcpServers(patch.mcpServers);
    // The caller's own step that may refuse the patch (the hotkey registers here).
    beforeWrite?.();
    const changes: Record<string, unknown> = {};
    for (const name of PLAIN_NAMES) {
      const value = patch[name];
      const tidy = TIDY[name] as ((value: unknown) => unknown) | undefined;
      if (value !== undefined) changes[name] = tidy === undefined ? value : tidy(value);
    }
    if (headers !== undefined) {
      changes['headersEncrypted'] = encryptedHeaders ?? '';
      changes['headers'] = '';
    }
    if (encrypted !== undefined) changes['apiKeyEncrypted'] = encrypted;
    if (patch.apiKey === null) changes['apiKeyEncrypted'] = '';
    if (mcpServers !== undefined) changes['mcpServersEncrypted'] = mcpServers;
    // One write: the store's schema checks every field first, so a refused one leaves all as they were.
    try {
      store.set(changes as Partial<StoredSettings>);
    } catch (error) {
      // electron-store names the field and the rule, never the value.
      throw new ValidationError(`settings not saved: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return this.publicSettings();
  }

  /** The UI's language: the setting, with `system` resolved from the OS's preferred languages. */
  language(): Language {
    return resolveLanguage(this.options.store.get('language'), this.systemLanguages());
  }

  systemLanguages(): readonly string[] {
    return this.options.systemLanguages?.() ?? [];
  }

  /** The vision setting, unless DESKPILOT_VISION names a mode (for a model known to see, or not). */
  private vision(): VisionSetting {
    const variable = this.options.env()['DESKPILOT_VISION']?.trim().toLowerCase();
    return VISION_MODES.find((mode) => mode === variable) ?? this.options.store.get('vision');
  }

  /** Stores an allowance the user gave on an approval card; Settings lists and revokes it. */
  allowTool(rule: ToolAllowance): void {
    this.options.store.set('toolAllowances', withAllowance(this.options.store.get('toolAllowances'), rule));
  }

  setWindowBounds(bounds: WindowBounds): void {
    this.options.store.set('windowBounds', bounds);
  }

  /** What the host's provider uses: stored settings, the decrypted key, and DESKPILOT_PROVIDER. Main → host only. */
  hostSettings(): HostSettings {
    const { store, safeStorage } = this.options;
    return hostSettingsOf(this.plainValues(), {
      preset: this.effectivePreset(),
      vision: this.vision(),
      language: this.language(),
      headers: this.storedHeaders(),
      apiKey: decryptKey(safeStorage, store.get('apiKeyEncrypted')),
      mcpServers: this.mcpServers(),
    });
  }

  /**
   * Whether a model can be reached without asking the network: the same resolution the
   * provider runs before each request (a key, a local preset, a loopback URL or an auth header).
   */
  configured(): boolean {
    return this.configProblem() === undefined;
  }

  /** Why a model cannot be reached, in the provider's own words (PROVIDER_CONFIG), for the first-run view. */
  configProblem(): string | undefined {
    try {
      resolveProviderConfig(providerSettings(this.hostSettings()), this.options.env());
      return undefined;
    } catch (error) {
      // Its messages name settings and variables, never a key or a header value.
      return error instanceof DeskpilotError && error.code === 'PROVIDER_CONFIG' ? error.message : 'The model provider settings could not be read.';
    }
  }

  /** The stored header list in clear, '' when none is stored or it can no longer be decrypted. Main → host only. */
  /** The stored MCP servers, secrets included; none when there are none or they cannot be read. */
  mcpServers(): McpServers {
    const text = decryptKey(this.options.safeStorage, this.options.store.get('mcpServersEncrypted'));
    if (text === undefined || text === '') return {};
    try {
      return parseMcpServers(JSON.parse(text));
    } catch {
      return {};
    }
  }

  /** Adds the servers of a Claude Desktop or Cursor config file; one named like a stored server replaces it. */
  importMcpServers(json: unknown): PublicSettings {
    this.options.store.set('mcpServersEncrypted', this.sealMcpServers({ ...this.mcpServers(), ...parseMcpServers(json) }));
    return this.publicSettings();
  }

  private mcpServersForEditor(): string {
    const servers = this.mcpServers();
    return Object.keys(servers).length === 0 ? '' : JSON.stringify({ mcpServers: redactMcpServers(servers) }, null, 2);
  }

  /** The edited JSON, checked (every problem named by its path), its STORED_SECRET values put back, and encrypted. */
  private encryptMcpServers(text: string): string {
    if (text.trim() === '') return '';
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ValidationError(`mcpServers: not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.sealMcpServers(restoreMcpSecrets(parseMcpServers(json), this.mcpServers()));
  }

  /** How the servers are stored: the whole config encrypted, as mcpServers() reads it back. */
  private sealMcpServers(servers: McpServers): string {
    return encryptKey(this.options.safeStorage, this.options.platform, JSON.stringify({ mcpServers: servers }), 'mcpServers');
  }

  private storedHeaders(): string {
    const { store, safeStorage } = this.options;
    const encrypted = store.get('headersEncrypted');
    if (encrypted !== '') return decryptKey(safeStorage, encrypted) ?? '';
    return store.get('headers');
  }

  /** What the settings view may know of the headers: their names, never their values. */
  private headerNames(): string[] {
    try {
      return Object.keys(parseHeaderList(this.storedHeaders(), 'the headers setting'));
    } catch {
      // A hand-edited file: the host reports the problem when it uses them; the names are just a display.
      return [];
    }
  }

  /** Headers an earlier version stored in clear move into the keychain as soon as there is one. */
  private encryptLegacyHeaders(): void {
    const { store, safeStorage, platform } = this.options;
    const legacy = store.get('headers');
    if (legacy === '' || keyStorageProblem(safeStorage, platform, 'headers') !== undefined) return;
    store.set({ headersEncrypted: encryptKey(safeStorage, platform, legacy, 'headers'), headers: '' });
  }

  private effectivePreset(): PresetName {
    return this.envPreset() ?? this.options.store.get('preset');
  }

  /**
   * The preset DESKPILOT_PROVIDER names, read by the core's own chooser (so `OpenAI` counts like
   * `openai`, as it does for the provider); undefined when unset or not a preset.
   */
  private envPreset(): PresetName | undefined {
    const env = this.options.env();
    if ((env['DESKPILOT_PROVIDER']?.trim() ?? '') === '') return undefined;
    try {
      return choosePreset({}, env).preset;
    } catch {
      // Not a preset: configProblem() says so, and the stored preset stays in use.
      return undefined;
    }
  }

  /** The settings an environment variable overrides right now, each with the variable's name. */
  private envOverrides(): Partial<Record<EnvOverride, string>> {
    const env = this.options.env();
    const set = (name: string | undefined): name is string => name !== undefined && (env[name]?.trim() ?? '') !== '';
    const overrides: Partial<Record<EnvOverride, string>> = {};
    if (this.envPreset() !== undefined) overrides.preset = 'DESKPILOT_PROVIDER';
    if (set('DESKPILOT_BASE_URL')) overrides.baseUrl = 'DESKPILOT_BASE_URL';
    if (set('DESKPILOT_MODEL')) overrides.model = 'DESKPILOT_MODEL';
    if (set('DESKPILOT_HEADERS')) overrides.headers = 'DESKPILOT_HEADERS';
    if (set('DESKPILOT_VISION')) overrides.vision = 'DESKPILOT_VISION';
    const keyEnv = PRESETS[this.effectivePreset()].keyEnv;
    if (set('DESKPILOT_API_KEY')) overrides.apiKey = 'DESKPILOT_API_KEY';
    else if (set(keyEnv)) overrides.apiKey = keyEnv;
    return overrides;
  }
}
