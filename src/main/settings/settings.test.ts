import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// electron-store is conf plus Electron's userData path. Vitest does not mock electron inside
// node_modules, so the tests use conf itself with the same options and an explicit cwd.
vi.mock('electron-store', async () => {
  const { default: Conf } = await import('conf');
  return {
    default: class extends Conf<Record<string, unknown>> {
      constructor({ name, ...options }: { name: string; cwd: string }) {
        super({ ...options, configName: name });
      }
    },
  };
});

const { createSettingsStore } = await import('./stores');
const { HOST_SETTINGS_SCHEMA, PUBLIC_SETTINGS_SCHEMA } = await import('../../shared/settings-derive');
const { SettingsService } = await import('./settings');

const SECRET = 'sk-test-secret-1234';

/** A keychain double: "encrypts" by reversing and tagging, so the stored bytes differ from the key. */
function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}) {
  return {
    isEncryptionAvailable: vi.fn(() => options.available ?? true),
    encryptString: vi.fn((text: string) => Buffer.from(`enc:${[...text].reverse().join('')}`)),
    decryptString: vi.fn((buffer: Buffer) => [...buffer.toString().slice(4)].reverse().join('')),
    getSelectedStorageBackend: vi.fn(() => options.backend ?? 'gnome_libsecret'),
  };
}

let dir: string;
let env: Record<string, string | undefined>;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-settings-'));
  env = {};
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function service(safeStorage = fakeSafeStorage(), platform = 'linux', systemLanguages?: () => readonly string[]) {
  const store = createSettingsStore(dir);
  return {
    store,
    safeStorage,
    settings: new SettingsService({ store, safeStorage, env: () => env, platform, ...(systemLanguages === undefined ? {} : { systemLanguages }) }),
  };
}

describe('settings', () => {
  it('starts from defaults: openrouter, the platform’s hotkey, confirm-risky, no key', () => {
    expect(service().settings.publicSettings()).toEqual({
      preset: 'openrouter',
      baseUrl: '',
      model: '',
      headerNames: [],
      hasApiKey: false,
      hotkey: process.platform === 'darwin' ? 'Alt+Space' : 'Control+Alt+Space',
      approvalPolicy: 'confirm-risky',
      openAtLogin: false,
      keepDevices: false,
      historyLimit: 500,
      docsFolders: [],
      docsAppHelp: true,
      docsManPages: true,
      docsUserFolders: true,
      embeddingModel: '',
      language: 'system',
      answerLanguage: 'auto',
      mcpServers: '',
      toolAllowances: [],
      vision: 'auto',
      maxSteps: 10,
      envOverrides: [],
      envVariables: {},
    });
  });

  it('resolves the system language from the OS list, Portuguese of any country to pt-BR, and fixes it on request', () => {
    const languages = ['pt-PT', 'en-US'];
    const { settings } = service(fakeSafeStorage(), 'linux', () => languages);
    expect(settings.language()).toBe('pt-BR');
    expect(settings.hostSettings()).toMatchObject({ language: 'pt-BR', answerLanguage: 'auto' });
    settings.update({ language: 'en', answerLanguage: 'pt-BR' });
    expect(settings.language()).toBe('en');
    expect(settings.hostSettings()).toMatchObject({ language: 'en', answerLanguage: 'pt-BR' });
    languages.splice(0, 2, 'fr-FR', 'de');
    settings.update({ language: 'system' });
    expect(settings.language()).toBe('en');
  });

  it('stores the key as the encrypted buffer, decrypts it for the host only, and never shows it', () => {
    const { settings, safeStorage } = service();
    const logged = vi.spyOn(console, 'log');
    const publicSettings = settings.update({ apiKey: SECRET, model: 'gpt-4o' });
    expect(publicSettings).toMatchObject({ hasApiKey: true, model: 'gpt-4o' });
    expect(JSON.stringify(publicSettings)).not.toContain(SECRET);

    const file = readFileSync(path.join(dir, 'settings.json'), 'utf8');
    expect(file).not.toContain(SECRET);
    const stored = (JSON.parse(file) as { apiKeyEncrypted: string }).apiKeyEncrypted;
    expect(Buffer.from(stored, 'base64')).toEqual(safeStorage.encryptString.mock.results[0]?.value);

    expect(settings.hostSettings().apiKey).toBe(SECRET);
    expect(safeStorage.decryptString).toHaveBeenCalledWith(Buffer.from(stored, 'base64'));
    expect(logged.mock.calls.flat().join(' ')).not.toContain(SECRET);
    logged.mockRestore();
  });

  it('hands the renderer exactly the public shape settings-schema.ts derives: no key, no header value, no MCP token', () => {
    const { settings } = service();
    const mcp = JSON.stringify({ mcpServers: { files: { command: 'files-mcp', env: { FILES_TOKEN: 'tok-secret-5678' } } } });
    const publicSettings = settings.update({ apiKey: SECRET, headers: 'Authorization: Bearer hdr-secret-9', mcpServers: mcp });
    expect(PUBLIC_SETTINGS_SCHEMA.safeParse(publicSettings).success).toBe(true);
    for (const secret of [SECRET, 'hdr-secret-9', 'tok-secret-5678']) expect(JSON.stringify(publicSettings)).not.toContain(secret);
    expect(HOST_SETTINGS_SCHEMA.safeParse(settings.hostSettings()).success).toBe(true);
  });

  it('sends the most steps per question to the host as the Agent option it is', () => {
    const { settings } = service();
    expect(settings.hostSettings().agent).toEqual({ maxIterations: 10 });
    expect(settings.update({ maxSteps: 25 }).maxSteps).toBe(25);
    expect(settings.hostSettings().agent).toEqual({ maxIterations: 25 });
    expect(() => settings.update({ maxSteps: 0 })).toThrow(/settings not saved/);
    expect(settings.hostSettings().agent).toEqual({ maxIterations: 25 });
  });

  it('deletes the key on null', () => {
    const { settings } = service();
    settings.update({ apiKey: SECRET });
    expect(settings.update({ apiKey: null }).hasApiKey).toBe(false);
    expect(settings.hostSettings().apiKey).toBeUndefined();
  });

  it('refuses to store a key without a keychain, and changes nothing else in that patch', () => {
    const { settings, safeStorage } = service(fakeSafeStorage({ available: false }));
    expect(() => settings.update({ apiKey: SECRET, model: 'other' })).toThrow(
      expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('DESKPILOT_API_KEY') }),
    );
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
    expect(settings.publicSettings()).toMatchObject({ hasApiKey: false, model: '' });
  });

  it("refuses Linux's basic_text backend, which is plaintext in disguise", () => {
    const { settings } = service(fakeSafeStorage({ backend: 'basic_text' }));
    expect(() => settings.update({ apiKey: SECRET })).toThrow(/keyring/);
    // The same backend name means nothing on other systems.
    expect(service(fakeSafeStorage({ backend: 'basic_text' }), 'darwin').settings.update({ apiKey: SECRET }).hasApiKey).toBe(true);
  });

  it('refuses malformed headers without echoing them', () => {
    const { settings } = service();
    expect(() => settings.update({ headers: 'Authorization Bearer xyz' })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG' }));
    expect(settings.publicSettings().headerNames).toEqual([]);
  });

  it('stores the headers encrypted and shows the renderer their names only: they may authenticate', () => {
    const { settings, store } = service();
    const headers = 'Authorization: Bearer hdr-secret; X-Team: red';
    const publicSettings = settings.update({ headers });
    expect(publicSettings.headerNames).toEqual(['Authorization', 'X-Team']);
    expect(JSON.stringify(publicSettings)).not.toContain('hdr-secret');
    expect(readFileSync(path.join(dir, 'settings.json'), 'utf8')).not.toContain('hdr-secret');
    expect(store.get('headersEncrypted')).not.toBe('');
    expect(settings.hostSettings().headers).toBe(headers);
    // A header authenticates like a key does, so the provider counts as configured.
    settings.update({ preset: 'openai' });
    expect(settings.configured()).toBe(true);
    expect(settings.update({ headers: null }).headerNames).toEqual([]);
    expect(settings.hostSettings().headers).toBe('');
  });

  it('refuses to store headers without a real keychain, and changes nothing else in that patch', () => {
    for (const safeStorage of [fakeSafeStorage({ available: false }), fakeSafeStorage({ backend: 'basic_text' })]) {
      const { settings } = service(safeStorage);
      expect(() => settings.update({ headers: 'Authorization: Bearer hdr-secret', model: 'other' })).toThrow(
        expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('DESKPILOT_HEADERS') }),
      );
      expect(safeStorage.encryptString).not.toHaveBeenCalled();
      expect(settings.publicSettings()).toMatchObject({ headerNames: [], model: '' });
      expect(readFileSync(path.join(dir, 'settings.json'), 'utf8')).not.toContain('hdr-secret');
    }
  });

  it('moves headers an earlier version stored in clear into the keychain', () => {
    service().store.set('headers', 'api-key: old-secret');
    const { settings, store } = service();
    expect(store.get('headers')).toBe('');
    expect(readFileSync(path.join(dir, 'settings.json'), 'utf8')).not.toContain('old-secret');
    expect(settings.publicSettings().headerNames).toEqual(['api-key']);
    expect(settings.hostSettings().headers).toBe('api-key: old-secret');
  });

  it('lists the variables that override settings, without their values', () => {
    const { settings } = service();
    env = { DESKPILOT_MODEL: 'env-model', DESKPILOT_HEADERS: 'Authorization: Bearer env-secret', DESKPILOT_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-env' };
    const publicSettings = settings.publicSettings();
    expect(publicSettings.envOverrides).toEqual(['preset', 'model', 'headers', 'apiKey']);
    expect(publicSettings.envVariables).toEqual({
      preset: 'DESKPILOT_PROVIDER',
      model: 'DESKPILOT_MODEL',
      headers: 'DESKPILOT_HEADERS',
      apiKey: 'OPENAI_API_KEY',
    });
    expect(JSON.stringify(publicSettings)).not.toMatch(/env-secret|sk-env|env-model/);
    expect(settings.hostSettings().preset).toBe('openai');
    env = { DESKPILOT_PROVIDER: 'nonsense', DESKPILOT_BASE_URL: ' ' };
    expect(settings.publicSettings().envOverrides).toEqual([]);
  });

  it('sends the vision setting to the host, with DESKPILOT_VISION over it', () => {
    const { settings } = service();
    expect(settings.hostSettings().vision).toBe('auto');
    expect(settings.update({ vision: 'off' }).vision).toBe('off');
    expect(settings.hostSettings().vision).toBe('off');
    env = { DESKPILOT_VISION: ' ON ' };
    expect(settings.hostSettings().vision).toBe('on');
    expect(settings.publicSettings()).toMatchObject({ vision: 'off', envOverrides: ['vision'], envVariables: { vision: 'DESKPILOT_VISION' } });
    env = { DESKPILOT_VISION: 'maybe' };
    expect(settings.hostSettings().vision).toBe('off');
  });

  it('reads DESKPILOT_PROVIDER in any case, as the provider does', () => {
    const { settings } = service();
    env = { DESKPILOT_PROVIDER: ' OpenAI ' };
    expect(settings.publicSettings().envOverrides).toContain('preset');
    expect(settings.hostSettings().preset).toBe('openai');
  });

  it('is configured with a key, a local preset, a loopback URL or a key variable', () => {
    const { settings } = service();
    expect(settings.configured()).toBe(false);
    env = { OPENROUTER_API_KEY: 'sk-env' };
    expect(settings.configured()).toBe(true);
    env = {};
    settings.update({ baseUrl: 'http://127.0.0.1:8080/v1' });
    expect(settings.configured()).toBe(true);
    settings.update({ baseUrl: '', preset: 'ollama' });
    expect(settings.configured()).toBe(true);
    settings.update({ preset: 'openai', apiKey: SECRET });
    expect(settings.configured()).toBe(true);
  });

  it('saves a patch whole or not at all: a field the store refuses leaves every other field as it was', () => {
    const { settings } = service();
    settings.update({ model: 'before' });
    const file = readFileSync(path.join(dir, 'settings.json'), 'utf8');
    // Past the IPC schema (which refuses it too): the store's own schema is the last line.
    expect(() => settings.update({ model: 'after', apiKey: SECRET, baseUrl: `https://example.com/${'a'.repeat(2000)}` })).toThrow(
      expect.objectContaining({ code: 'VALIDATION', message: expect.stringContaining('baseUrl') }),
    );
    expect(readFileSync(path.join(dir, 'settings.json'), 'utf8')).toBe(file);
    expect(settings.publicSettings()).toMatchObject({ model: 'before', hasApiKey: false, baseUrl: '' });
  });

  it('says why it is not configured: LM Studio without a model, a mistyped DESKPILOT_PROVIDER, no key', () => {
    const { settings } = service();
    expect(settings.configProblem()).toMatch(/No API key for OpenRouter/);
    settings.update({ preset: 'lmstudio' });
    expect(settings.configured()).toBe(false);
    expect(settings.configProblem()).toMatch(/No model chosen for LM Studio/);
    settings.update({ model: 'qwen' });
    expect(settings.configProblem()).toBeUndefined();
    env = { DESKPILOT_PROVIDER: 'olama' };
    expect(settings.configProblem()).toMatch(/DESKPILOT_PROVIDER is 'olama', which is not a preset/);
  });

  it('keeps window bounds and the rest across a restart', () => {
    service().settings.update({ hotkey: 'Control+Shift+Space', historyLimit: 50, openAtLogin: true });
    const { settings } = service();
    settings.setWindowBounds({ x: 10, y: 20, width: 400, height: 600 });
    expect(service().settings.get('windowBounds')).toEqual({ x: 10, y: 20, width: 400, height: 600 });
    expect(service().settings.publicSettings()).toMatchObject({ hotkey: 'Control+Shift+Space', historyLimit: 50, openAtLogin: true });
  });
});

describe('presets', () => {
  it('have the label and local flag the settings view shows', async () => {
    const { PRESETS } = await import('../../core/provider-config/presets');
    const { PRESET_INFO, PRESET_NAMES } = await import('../../shared/settings');
    for (const name of PRESET_NAMES) expect(PRESETS[name]).toMatchObject(PRESET_INFO[name]);
  });

  describe('MCP servers', () => {
    const CONFIG = {
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'server-filesystem'], env: { TOKEN: 'tok-secret' } },
        web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer hdr-secret' } },
      },
    };

    it('keeps them encrypted, shows the editor every secret as (stored), and gives the host the real values', () => {
      const { settings } = service();
      settings.update({ mcpServers: JSON.stringify(CONFIG) });
      expect(readFileSync(path.join(dir, 'settings.json'), 'utf8')).not.toMatch(/tok-secret|hdr-secret/);
      const shown = settings.publicSettings().mcpServers;
      expect(shown).not.toMatch(/tok-secret|hdr-secret/);
      expect(JSON.parse(shown)).toEqual({
        mcpServers: {
          files: { command: 'npx', args: ['-y', 'server-filesystem'], env: { TOKEN: '(stored)' } },
          web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: '(stored)' } },
        },
      });
      expect(settings.hostSettings().mcpServers).toEqual(CONFIG.mcpServers);
    });

    it('keeps a (stored) secret through an edit, takes a retyped one, and refuses (stored) with nothing behind it', () => {
      const { settings } = service();
      settings.update({ mcpServers: JSON.stringify(CONFIG) });
      const edited = JSON.parse(settings.publicSettings().mcpServers) as {
        mcpServers: { files: { args: string[] }; web: { headers: Record<string, string> } };
      };
      edited.mcpServers.files.args = ['-y', 'server-filesystem', '/home/ada'];
      edited.mcpServers.web.headers['Authorization'] = 'Bearer new';
      settings.update({ mcpServers: JSON.stringify(edited) });
      expect(settings.hostSettings().mcpServers).toEqual({
        files: { command: 'npx', args: ['-y', 'server-filesystem', '/home/ada'], env: { TOKEN: 'tok-secret' } },
        web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer new' } },
      });
      expect(() => settings.update({ mcpServers: JSON.stringify({ mcpServers: { other: { command: 'x', env: { KEY: '(stored)' } } } }) })).toThrow(
        /other\.env\.KEY/,
      );
    });

    it('names the field that is wrong, refuses what is not JSON, and stores nothing then', () => {
      const { settings } = service();
      expect(() => settings.update({ mcpServers: '{ "mcpServers": ' })).toThrow(/^mcpServers: not JSON/);
      expect(() => settings.update({ mcpServers: JSON.stringify({ mcpServers: { files: { command: 7 } } }) })).toThrow(/files/);
      expect(settings.publicSettings().mcpServers).toBe('');
      settings.update({ mcpServers: JSON.stringify(CONFIG) });
      settings.update({ mcpServers: '' });
      expect(settings.hostSettings().mcpServers).toEqual({});
    });

    it('imports the servers of a Claude Desktop config beside the stored ones', () => {
      const { settings } = service();
      settings.update({ mcpServers: JSON.stringify(CONFIG) });
      settings.importMcpServers({ mcpServers: { calendar: { command: 'calendar-mcp' } }, globalShortcut: 'x' });
      expect(Object.keys(settings.hostSettings().mcpServers)).toEqual(['files', 'web', 'calendar']);
      expect(settings.hostSettings().mcpServers['files']).toEqual(CONFIG.mcpServers.files);
    });
  });
});
