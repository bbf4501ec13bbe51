import { describe, expect, it } from 'vitest';
import { settingsDefaults, type PublicSettings } from '../../../shared/settings-derive';
import { draftOf, patchOf } from './settings-form';

const SETTINGS: PublicSettings = {
  // Every setting at its default, so a new one needs nothing here; the values below are this test's own.
  ...settingsDefaults('linux'),
  preset: 'openrouter',
  baseUrl: '',
  model: '',
  headerNames: ['Authorization'],
  hasApiKey: true,
  hotkey: 'Alt+Space',
  approvalPolicy: 'confirm-risky',
  language: 'system',
  answerLanguage: 'auto',
  mcpServers: '',
  toolAllowances: [],
  vision: 'auto',
  keepDevices: false,
  openAtLogin: false,
  historyLimit: 200,
  docsFolders: [],
  docsAppHelp: true,
  docsManPages: true,
  docsUserFolders: true,
  embeddingModel: '',
  envOverrides: [],
  envVariables: {},
};

describe('patchOf', () => {
  it('sends nothing when nothing changed', () => {
    expect(patchOf(SETTINGS, draftOf(SETTINGS))).toEqual({ patch: {} });
  });

  it('sends changed fields, trimmed, and never fields an environment variable overrides', () => {
    const settings = { ...SETTINGS, envOverrides: ['model' as const, 'apiKey' as const] };
    const draft = {
      ...draftOf(settings),
      model: 'x',
      baseUrl: ' https://example.com/v1 ',
      historyLimit: '50',
      keyAction: 'remove' as const,
      embeddingModel: ' nomic-embed-text ',
    };
    expect(patchOf(settings, draft)).toEqual({ patch: { baseUrl: 'https://example.com/v1', historyLimit: 50, embeddingModel: 'nomic-embed-text' } });
  });

  it('replaces or removes the key only when asked', () => {
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), keyAction: 'replace', newKey: ' sk-1 ' })).toEqual({ patch: { apiKey: 'sk-1' } });
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), keyAction: 'remove' })).toEqual({ patch: { apiKey: null } });
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), keyAction: 'replace', newKey: ' ' })).toHaveProperty('error');
  });

  it('replaces or removes the headers only when asked, and never sends the names back', () => {
    const replaced = patchOf(SETTINGS, { ...draftOf(SETTINGS), headersAction: 'replace', newHeaders: ' Authorization: Bearer t; X-Title: Deskpilot ' });
    expect(replaced).toEqual({ patch: { headers: 'Authorization: Bearer t; X-Title: Deskpilot' } });
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), headersAction: 'remove' })).toEqual({ patch: { headers: null } });
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), headersAction: 'replace', newHeaders: ' ' })).toHaveProperty('error');
    expect(patchOf({ ...SETTINGS, envOverrides: ['headers'] }, { ...draftOf(SETTINGS), headersAction: 'remove' })).toEqual({ patch: {} });
  });

  it('refuses a history limit that is not a whole number', () => {
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), historyLimit: '2.5' })).toHaveProperty('error');
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), historyLimit: '-1' })).toHaveProperty('error');
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), historyLimit: '' })).toHaveProperty('error');
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), historyLimit: '-1' })).toEqual({ error: 'settings.historyLimitInvalid', field: 'history-limit' });
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), baseUrl: 'localhost:11434' })).toEqual({ error: 'settings.baseUrlInvalid', field: 'base-url' });
    expect(patchOf(SETTINGS, { ...draftOf(SETTINGS), baseUrl: ' http://127.0.0.1:1234/v1 ' })).toEqual({ patch: { baseUrl: 'http://127.0.0.1:1234/v1' } });
  });
});

describe('the settings the form shows by their type', () => {
  it('sends a changed switch, and nothing for one left as it was', () => {
    const draft = draftOf(SETTINGS);
    expect(patchOf(SETTINGS, draft)).toEqual({ patch: {} });
    expect(patchOf(SETTINGS, { ...draft, fields: { ...draft.fields, keepDevices: true } })).toEqual({ patch: { keepDevices: true } });
  });

  it('sends nothing for a setting a variable overrides', () => {
    const locked = { ...SETTINGS, envOverrides: ['keepDevices' as const] };
    const draft = draftOf(locked);
    expect(patchOf(locked, { ...draft, fields: { ...draft.fields, keepDevices: true } })).toEqual({ patch: {} });
  });
});
