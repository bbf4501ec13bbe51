import { describe, expect, it } from 'vitest';
import {
  HOST_SETTINGS_DEFAULTS,
  HOST_SETTINGS_SCHEMA,
  PLAIN_NAMES,
  PUBLIC_SETTINGS_SCHEMA,
  SECRET_NAMES,
  SETTINGS_PATCH_SCHEMA,
  STORE_JSON_SCHEMA,
  WINDOW_FIELDS,
  hostSettingsOf,
  settingsDefaults,
  storedDefaults,
  type PublicSettings,
} from './settings-derive';
import { SETTINGS_FIELDS } from './settings-schema';

const PUBLIC: PublicSettings = {
  ...settingsDefaults('linux'),
  headerNames: ['Authorization'],
  hasApiKey: true,
  mcpServers: '',
  envOverrides: [],
  envVariables: {},
};

describe('the settings derived from settings-schema.ts', () => {
  it('knows the credentials as secrets, and every other field as plain', () => {
    expect([...SECRET_NAMES].sort()).toEqual(['apiKey', 'headers', 'mcpServers']);
    expect([...SECRET_NAMES, ...PLAIN_NAMES].sort()).toEqual(Object.keys(SETTINGS_FIELDS).sort());
  });

  it('never puts a secret in what the renderer sees: only its view, and no extra key gets through', () => {
    const shape = Object.keys((PUBLIC_SETTINGS_SCHEMA as unknown as { shape: object }).shape);
    expect(shape).not.toContain('apiKey');
    expect(shape).not.toContain('headers');
    expect(shape).toEqual(expect.arrayContaining(['hasApiKey', 'headerNames', 'mcpServers']));
    expect(PUBLIC_SETTINGS_SCHEMA.safeParse(PUBLIC).success).toBe(true);
    expect(PUBLIC_SETTINGS_SCHEMA.safeParse({ ...PUBLIC, apiKey: 'sk-secret' }).success).toBe(false);
    expect(PUBLIC_SETTINGS_SCHEMA.safeParse({ ...PUBLIC, headers: 'Authorization: Bearer x' }).success).toBe(false);
  });

  it('stores each secret encrypted under its own key, never in clear', () => {
    const stored = Object.keys(STORE_JSON_SCHEMA);
    for (const name of SECRET_NAMES) {
      expect(stored).toContain(`${name}Encrypted`);
      expect(stored).not.toContain(name);
    }
    expect(storedDefaults('linux')).toMatchObject({ apiKeyEncrypted: '', headersEncrypted: '', mcpServersEncrypted: '' });
  });

  it('has defaults that the patch and host schemas accept, on each OS (the store checks them in settings-store.test.ts)', () => {
    for (const platform of ['linux', 'darwin', 'win32']) expect(SETTINGS_PATCH_SCHEMA.safeParse(settingsDefaults(platform)).success).toBe(true);
    expect(settingsDefaults('darwin').hotkey).toBe('Alt+Space');
    expect(settingsDefaults('linux').hotkey).toBe('Control+Alt+Space');
    expect(HOST_SETTINGS_SCHEMA.safeParse(HOST_SETTINGS_DEFAULTS).success).toBe(true);
  });

  it('rejects a patch with an unknown key or a wrong type, and takes null only to delete a secret', () => {
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ model: 'gpt' }).success).toBe(true);
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ modle: 'gpt' }).success).toBe(false);
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ hasApiKey: true }).success).toBe(false);
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ apiKeyEncrypted: 'abc' }).success).toBe(false);
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ historyLimit: '20' }).success).toBe(false);
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ openAtLogin: 1 }).success).toBe(false);
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ apiKey: null, headers: null }).success).toBe(true);
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ model: null }).success).toBe(false);
    expect(SETTINGS_PATCH_SCHEMA.safeParse({ apiKey: '   ' }).success).toBe(false);
  });

  it('sends the host only the fields marked for it, grouped as its services take them', () => {
    const settings = hostSettingsOf(
      { ...settingsDefaults('linux'), docsFolders: ['/home/ada/Notes'], docsManPages: false },
      { preset: 'openai', vision: 'on', language: 'pt-BR', headers: '', apiKey: 'sk-secret', mcpServers: {} },
    );
    expect(settings).toMatchObject({ preset: 'openai', vision: 'on', language: 'pt-BR', apiKey: 'sk-secret' });
    expect(settings.docs).toEqual({ folders: ['/home/ada/Notes'], appHelp: true, manPages: false, userFolders: true });
    for (const local of ['hotkey', 'openAtLogin', 'historyLimit', 'docsFolders']) expect(settings).not.toHaveProperty(local);
    expect(HOST_SETTINGS_SCHEMA.safeParse(settings).success).toBe(true);
    // No key stored: the host gets none, not an empty one.
    const keyless = hostSettingsOf(settingsDefaults('linux'), {
      preset: 'openai',
      vision: 'on',
      language: 'en',
      headers: '',
      apiKey: undefined,
      mcpServers: {},
    });
    expect(keyless).not.toHaveProperty('apiKey');
  });

  it('shows in the form by type only plain fields, each in a known section', () => {
    for (const { name, section } of WINDOW_FIELDS) {
      expect(PLAIN_NAMES).toContain(name);
      expect(['model', 'hotkey', 'safety', 'data']).toContain(section);
    }
  });
});
