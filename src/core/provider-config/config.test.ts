import { describe, expect, it } from 'vitest';
import { resolveProviderConfig } from './config';

describe('resolveProviderConfig', () => {
  it('uses the preset defaults and the preset key variable', () => {
    const config = resolveProviderConfig({ preset: 'gemini' }, { GEMINI_API_KEY: 'g-key' });
    expect(config).toMatchObject({
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/',
      apiKey: 'g-key',
      model: 'gemini-2.0-flash',
      headers: {},
    });
  });

  it('lets the environment override settings, DESKPILOT_API_KEY first', () => {
    const config = resolveProviderConfig(
      { preset: 'openai', apiKey: 'from-settings', model: 'm1', baseUrl: 'https://a.example/v1', headers: { 'X-A': 's' } },
      {
        OPENAI_API_KEY: 'usual',
        DESKPILOT_API_KEY: 'deskpilot',
        DESKPILOT_MODEL: 'm2',
        DESKPILOT_BASE_URL: 'https://b.example/v1',
        DESKPILOT_HEADERS: 'x-a: e; X-B: 2',
      },
    );
    expect(config).toMatchObject({ apiKey: 'deskpilot', model: 'm2', baseUrl: 'https://b.example/v1', headers: { 'x-a': 'e', 'X-B': '2' } });
    expect(resolveProviderConfig({ preset: 'openai', apiKey: 'from-settings' }, { OPENAI_API_KEY: 'usual' }).apiKey).toBe('usual');
    expect(resolveProviderConfig({ preset: 'openai', apiKey: 'from-settings' }, {}).apiKey).toBe('from-settings');
  });

  it('gives OpenRouter its site headers, overridable from settings', () => {
    const headers = resolveProviderConfig({ siteUrl: 'https://me.example', siteTitle: 'Mine' }, { OPENROUTER_API_KEY: 'k' }).headers;
    expect(headers).toEqual({ 'HTTP-Referer': 'https://me.example', 'X-Title': 'Mine' });
    expect(resolveProviderConfig({ preset: 'openrouter' }, { OPENROUTER_API_KEY: 'k' }).baseUrl).toBe('https://openrouter.ai/api/v1');
  });

  it.each([
    ['openrouter', /OpenRouter.*Settings → Provider → API key.*DESKPILOT_API_KEY or OPENROUTER_API_KEY/],
    ['openai', /DESKPILOT_API_KEY or OPENAI_API_KEY/],
    ['gemini', /DESKPILOT_API_KEY or GEMINI_API_KEY/],
  ] as const)('without a key, %s fails with PROVIDER_CONFIG saying how to set one', (preset, message) => {
    expect(() => resolveProviderConfig({ preset }, {})).toThrow(message);
    expect(() => resolveProviderConfig({ preset }, {})).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG' }));
  });

  it('lets DESKPILOT_PROVIDER choose the preset over the settings', () => {
    const config = resolveProviderConfig({ preset: 'openrouter', apiKey: 'k' }, { DESKPILOT_PROVIDER: 'OpenAI' });
    expect(config).toMatchObject({ preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'k' });
    expect(resolveProviderConfig({ preset: 'openai' }, { DESKPILOT_PROVIDER: 'ollama' }).preset).toBe('ollama');
    expect(resolveProviderConfig({ preset: 'ollama' }, { DESKPILOT_PROVIDER: ' ' }).preset).toBe('ollama');
  });

  it('rejects an unknown DESKPILOT_PROVIDER with PROVIDER_CONFIG listing the presets', () => {
    expect(() => resolveProviderConfig({}, { DESKPILOT_PROVIDER: 'skynet', DESKPILOT_API_KEY: 'k' })).toThrow(
      expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringMatching(/'skynet'.*openrouter, openai, ollama, lmstudio, gemini/) as unknown }),
    );
  });

  it('with no preset chosen, picks the service whose own key variable is set', () => {
    expect(resolveProviderConfig({}, { OPENAI_API_KEY: 'o' })).toMatchObject({ preset: 'openai', apiKey: 'o' });
    expect(resolveProviderConfig({}, { GEMINI_API_KEY: 'g' })).toMatchObject({ preset: 'gemini', apiKey: 'g' });
    expect(resolveProviderConfig({}, { GEMINI_API_KEY: 'g', OPENROUTER_API_KEY: 'r' }).preset).toBe('openrouter');
  });

  it('needs no key for local presets or a loopback base URL', () => {
    expect(resolveProviderConfig({ preset: 'ollama' }, {})).toMatchObject({ baseUrl: 'http://localhost:11434/v1', apiKey: undefined });
    expect(resolveProviderConfig({ preset: 'lmstudio', model: 'qwen' }, {}).baseUrl).toBe('http://localhost:1234/v1');
    expect(resolveProviderConfig({}, { DESKPILOT_BASE_URL: 'http://127.0.0.1:9/v1', DESKPILOT_MODEL: 'm' }).apiKey).toBeUndefined();
  });

  it('needs no key when DESKPILOT_HEADERS carries the authentication', () => {
    const config = resolveProviderConfig({ preset: 'openai' }, { DESKPILOT_HEADERS: 'api-key: azure-secret' });
    expect(config).toMatchObject({ apiKey: undefined, headers: { 'api-key': 'azure-secret' } });
  });

  it('asks for a model when a local preset has no default', () => {
    expect(() => resolveProviderConfig({ preset: 'lmstudio' }, {})).toThrow(/DESKPILOT_MODEL/);
  });

  it('rejects a base URL that is not http(s) without echoing it', () => {
    expect(() => resolveProviderConfig({}, { DESKPILOT_BASE_URL: 'not a url sk-1', DESKPILOT_API_KEY: 'k' })).toThrow(
      expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.not.stringContaining('sk-1') as unknown }),
    );
    expect(() => resolveProviderConfig({}, { DESKPILOT_BASE_URL: 'ftp://x/v1', DESKPILOT_API_KEY: 'k' })).toThrow(/http/);
  });

  it('a base URL of its own is its own provider: no key needed, none of the services keys sent, no preset model', () => {
    const lan = { DESKPILOT_BASE_URL: 'http://192.168.1.50:8080/v1', DESKPILOT_MODEL: 'qwen2.5', OPENROUTER_API_KEY: 'sk-or-not-for-lan' };
    expect(resolveProviderConfig({}, lan)).toMatchObject({
      baseUrl: 'http://192.168.1.50:8080/v1',
      apiKey: undefined,
      model: 'qwen2.5',
      custom: true,
      label: 'the server at http://192.168.1.50:8080/v1',
      headers: {},
    });
    // The key goes only when given for it.
    expect(resolveProviderConfig({}, { ...lan, DESKPILOT_API_KEY: 'lan-key' }).apiKey).toBe('lan-key');
    // Without a model there is no OpenRouter default: the error names the server.
    expect(() => resolveProviderConfig({}, { DESKPILOT_BASE_URL: 'http://192.168.1.50:8080/v1' })).toThrow(
      expect.objectContaining({
        code: 'PROVIDER_CONFIG',
        message: expect.stringMatching(/^No model chosen for the server at http:\/\/192\.168\.1\.50:8080\/v1\./) as unknown,
      }),
    );
  });

  it('honours OLLAMA_HOST with DESKPILOT_PROVIDER=ollama, and names it so', () => {
    const config = resolveProviderConfig({}, { DESKPILOT_PROVIDER: 'ollama', OLLAMA_HOST: 'gpu-box:11434' });
    expect(config).toMatchObject({ baseUrl: 'http://gpu-box:11434/v1', label: 'Ollama at http://gpu-box:11434/v1', model: 'llama3.2', custom: false });
    // DESKPILOT_BASE_URL still wins.
    expect(resolveProviderConfig({}, { DESKPILOT_PROVIDER: 'ollama', OLLAMA_HOST: 'gpu-box', DESKPILOT_BASE_URL: 'http://other:1/v1' }).baseUrl).toBe(
      'http://other:1/v1',
    );
  });

  it('turns the user:password part of a base URL into a Basic header, so it is sent but never shown', () => {
    const config = resolveProviderConfig({}, { DESKPILOT_BASE_URL: 'https://ada:hunter22@llm.example/v1', DESKPILOT_MODEL: 'm' });
    expect(config).toMatchObject({ baseUrl: 'https://llm.example/v1', label: 'the server at https://llm.example/v1' });
    expect(config.headers).toEqual({ Authorization: `Basic ${Buffer.from('ada:hunter22').toString('base64')}` });
    // A key wins: it is the authentication, and the URL's credentials are dropped.
    const keyed = resolveProviderConfig({}, { DESKPILOT_BASE_URL: 'https://ada:hunter22@llm.example/v1', DESKPILOT_MODEL: 'm', DESKPILOT_API_KEY: 'k' });
    expect(keyed.headers).toEqual({});
  });
});
