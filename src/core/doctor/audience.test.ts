import { describe, expect, it } from 'vitest';
import type { DoctorCheck } from '../../shared/ipc';
import { resolveProviderConfig } from '../agent/provider';
import { forAudience } from './audience';

const noKeyring: DoctorCheck = {
  id: 'keyring',
  status: 'fail',
  figure: 'no Secret Service or KWallet on the session bus',
  fix: 'install gnome-keyring (or KWallet) and unlock it at login',
  fixKey: 'no-keyring',
};
const refused: DoctorCheck = {
  id: 'provider-key',
  status: 'fail',
  figure: 'HTTP 401: the server refused the API key',
  fix: 'replace the key in Settings → Provider, or DESKPILOT_API_KEY',
  fixKey: 'provider-key',
};
const noModel: DoctorCheck = {
  id: 'provider-model',
  status: 'fail',
  figure: 'HTTP 404',
  fix: 'choose a model in Settings → Provider → Model or DESKPILOT_MODEL',
  fixKey: 'provider-model',
};

describe('doctor results for the program that prints them', () => {
  it('on the CLI, a missing keyring is "–" with the reason: the CLI never reads one', () => {
    const env = { DESKPILOT_API_KEY: 'sk-test' };
    const [keyring] = forAudience([noKeyring], 'cli', resolveProviderConfig({}, env), env);
    expect(keyring).toEqual({
      id: 'keyring',
      status: 'skip',
      figure: 'not needed: the CLI takes its API key from DESKPILOT_API_KEY and never reads a keyring (found: no Secret Service or KWallet on the session bus)',
    });
  });

  it('in the app, the keyring is needed only when the key would be kept there', () => {
    const fromVariable = { DESKPILOT_API_KEY: 'sk-test' };
    expect(forAudience([noKeyring], 'app', resolveProviderConfig({}, fromVariable), fromVariable)[0]).toMatchObject({
      status: 'skip',
      figure: expect.stringMatching(/^not needed now: the API key comes from DESKPILOT_API_KEY/),
    });
    const local = { DESKPILOT_PROVIDER: 'ollama', DESKPILOT_MODEL: 'llama3.2' };
    expect(forAudience([noKeyring], 'app', resolveProviderConfig({}, local), local)[0]).toMatchObject({
      status: 'skip',
      figure: expect.stringMatching(/needs no API key/),
    });
    // A key typed into Settings is kept in the keyring: then a missing one is a failure, with the fix.
    const typed = resolveProviderConfig({ preset: 'openai', apiKey: 'sk-from-settings' }, {});
    expect(forAudience([noKeyring], 'app', typed, {})[0]).toEqual(noKeyring);
  });

  it('names Settings only in the app, and the variables only on the CLI', () => {
    const env = { OPENAI_API_KEY: 'sk-test' };
    const config = resolveProviderConfig({}, env);
    const cli = forAudience([refused, noModel], 'cli', config, env);
    expect(cli.map((check) => check.fix)).toEqual([
      'set a key the server accepts in DESKPILOT_API_KEY or OPENAI_API_KEY',
      'name a model this provider has in DESKPILOT_MODEL',
    ]);
    const app = forAudience([refused, noModel], 'app', config, env);
    expect(app.map((check) => check.fix)).toEqual([
      'replace the key in Settings → Provider',
      'choose a model this provider has in Settings → Provider → Model',
    ]);
    for (const check of cli) expect(check.fix).not.toContain('Settings');
    for (const check of app) expect(check.fix).not.toMatch(/DESKPILOT_/);
  });

  it('drops the Settings way out of any other fix on the CLI, keeping the rest', () => {
    const none: DoctorCheck = {
      id: 'provider',
      status: 'fail',
      figure: 'no usable provider configured',
      fix: 'Set DESKPILOT_API_KEY; or add a key in Settings → Provider; or start a local server',
      fixKey: 'provider-config',
    };
    expect(forAudience([none], 'cli', undefined, {})[0]?.fix).toBe('Set DESKPILOT_API_KEY; or start a local server');
    expect(forAudience([none], 'app', undefined, {})[0]?.fix).toBe(none.fix);
  });
});
