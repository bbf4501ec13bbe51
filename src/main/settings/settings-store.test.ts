import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedDefaults } from '../../shared/settings-derive';
import { SETTINGS_DEFAULTS, SETTINGS_SCHEMA } from './settings-store';

// electron-store is conf plus Electron's paths: conf runs the same ajv check on the same options.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function store() {
  return new Conf<Record<string, unknown>>({ cwd: dir, configName: 'settings', defaults: SETTINGS_DEFAULTS, schema: SETTINGS_SCHEMA });
}

describe("electron-store's schema, derived from settings-schema.ts", () => {
  it('takes the defaults of every OS', () => {
    expect(store().store).toMatchObject(SETTINGS_DEFAULTS);
    for (const platform of ['linux', 'darwin', 'win32']) expect(() => store().set({ ...storedDefaults(platform) })).not.toThrow();
  });

  it.each([
    ['a negative history limit', { historyLimit: -1 }],
    ['a fractional history limit', { historyLimit: 2.5 }],
    ['a string for a switch', { openAtLogin: 'yes' }],
    ['an unknown preset', { preset: 'acme' }],
    ['a model name past its bound', { model: 'm'.repeat(201) }],
    ['an empty hotkey', { hotkey: '' }],
    ['an encrypted key past its bound', { apiKeyEncrypted: 'x'.repeat(8001) }],
    ['an allowance with an unknown field', { toolAllowances: [{ server: 'files', extra: 1 }] }],
    ['too many folders', { docsFolders: Array.from({ length: 51 }, (_, index) => `/f${index}`) }],
  ])('refuses %s', (_, values) => {
    const settings = store();
    expect(() => settings.set(values)).toThrow();
    expect(settings.store).toMatchObject(SETTINGS_DEFAULTS);
  });

  it('holds the file to types and bounds only: a relative folder or a bare host the window would refuse is kept', () => {
    // A file that fails the schema is reset whole, so one stale value must not cost every setting.
    expect(() => store().set({ docsFolders: ['notes'], baseUrl: 'localhost:1234' })).not.toThrow();
  });
});
