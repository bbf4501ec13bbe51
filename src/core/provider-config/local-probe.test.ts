import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveProviderConfigProbing } from './config';
import { defaultLocalServers, type LocalServer } from './local-probe';

/** A local HTTP server on an ephemeral port: a stand-in for Ollama or LM Studio. */
interface FakeServer {
  baseUrl: string;
  hits: string[];
  close(): Promise<void>;
}

const open: FakeServer[] = [];

async function fakeServer(answer: 'models' | 'empty' | 'hang' | 'not-openai', models = ['first-model', 'second-model']): Promise<FakeServer> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method ?? ''} ${request.url ?? ''}`);
    if (answer === 'hang') return; // accepts, never answers
    if (answer === 'not-openai') {
      response.writeHead(404).end('not here');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ object: 'list', data: (answer === 'empty' ? [] : models).map((id) => ({ id, object: 'model' })) }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const created: FakeServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  open.push(created);
  return created;
}

/** A port nothing listens on: a server is started, its port noted, and it is closed again. */
async function closedPort(): Promise<string> {
  const gone = await fakeServer('models');
  await gone.close();
  open.splice(open.indexOf(gone), 1);
  return gone.baseUrl;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

const servers = (ollama: string, lmstudio: string): LocalServer[] => [
  { preset: 'ollama', baseUrl: ollama },
  { preset: 'lmstudio', baseUrl: lmstudio },
];

describe('resolveProviderConfigProbing', () => {
  it('with nothing configured, uses the first local server that answers, and its first model', async () => {
    const lmstudio = await fakeServer('models');
    const config = await resolveProviderConfigProbing({}, {}, { servers: servers(await closedPort(), lmstudio.baseUrl) });
    expect(config).toMatchObject({ preset: 'lmstudio', baseUrl: lmstudio.baseUrl, model: 'first-model', apiKey: undefined });
    expect(lmstudio.hits).toEqual(['GET /v1/models']);
  });

  it('prefers Ollama when both answer, and keeps a model that is configured', async () => {
    const ollama = await fakeServer('models', ['llama3.2']);
    const lmstudio = await fakeServer('models');
    expect(await resolveProviderConfigProbing({}, {}, { servers: servers(ollama.baseUrl, lmstudio.baseUrl) })).toMatchObject({
      preset: 'ollama',
      model: 'llama3.2',
    });
    expect(await resolveProviderConfigProbing({}, { DESKPILOT_MODEL: 'qwen3' }, { servers: servers(ollama.baseUrl, lmstudio.baseUrl) })).toMatchObject({
      preset: 'ollama',
      model: 'qwen3',
    });
  });

  it('passes over a server that is not OpenAI-compatible, and one that hangs, within the timeout', async () => {
    const wrong = await fakeServer('not-openai');
    const hanging = await fakeServer('hang');
    // What ended the hanging request is read off its signal, not off a clock: its own timeout cut it.
    const signals = new Map<string, AbortSignal | undefined>();
    const fetch: typeof globalThis.fetch = (input, init) => {
      signals.set(String(input), init?.signal ?? undefined);
      return globalThis.fetch(input, init);
    };
    await expect(resolveProviderConfigProbing({}, {}, { servers: servers(wrong.baseUrl, hanging.baseUrl), timeoutMs: 200, fetch })).rejects.toMatchObject({
      code: 'PROVIDER_CONFIG',
    });
    const hangingSignal = signals.get(`${hanging.baseUrl}/models`);
    expect(hangingSignal?.aborted).toBe(true);
    expect((hangingSignal?.reason as Error | undefined)?.name).toBe('TimeoutError');
    expect(hanging.hits).toEqual(['GET /v1/models']);
  });

  it('fails with PROVIDER_CONFIG saying every way to configure one when nothing answers', async () => {
    const failure = resolveProviderConfigProbing({}, {}, { servers: servers(await closedPort(), await closedPort()) });
    await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_CONFIG' });
    const message = ((await failure.catch((error: unknown) => error)) as Error).message;
    for (const words of ['DESKPILOT_API_KEY', 'OPENAI_API_KEY', 'DESKPILOT_PROVIDER', 'DESKPILOT_MODEL', 'Settings → Provider', 'Ollama', 'LM Studio']) {
      expect(message).toContain(words);
    }
  });

  it('says when a server answered but has no model loaded', async () => {
    const empty = await fakeServer('empty');
    await expect(resolveProviderConfigProbing({}, {}, { servers: servers(empty.baseUrl, await closedPort()) })).rejects.toThrow(
      /Ollama answered but has no model loaded/,
    );
  });

  it('does not probe when a key, a base URL or a chosen preset says what to use', async () => {
    const ollama = await fakeServer('models');
    const probe = { servers: servers(ollama.baseUrl, ollama.baseUrl) };
    expect(await resolveProviderConfigProbing({}, { OPENAI_API_KEY: 'k' }, probe)).toMatchObject({ preset: 'openai', apiKey: 'k' });
    expect(await resolveProviderConfigProbing({ apiKey: 's' }, {}, probe)).toMatchObject({ preset: 'openrouter', apiKey: 's' });
    expect(await resolveProviderConfigProbing({}, { DESKPILOT_BASE_URL: 'http://127.0.0.1:9/v1', DESKPILOT_MODEL: 'm' }, probe)).toMatchObject({
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    await expect(resolveProviderConfigProbing({}, { DESKPILOT_PROVIDER: 'openai' }, probe)).rejects.toThrow(/No API key for OpenAI/);
    expect(await resolveProviderConfigProbing({}, { DESKPILOT_PROVIDER: 'ollama' }, probe)).toMatchObject({
      preset: 'ollama',
      baseUrl: 'http://localhost:11434/v1',
    });
    expect(ollama.hits).toEqual([]);
  });
});

describe('a server of the user own with no model set', () => {
  it('takes the first model its /models lists, and says what to set when it lists none', async () => {
    const server = await fakeServer('models', ['served-model']);
    const config = await resolveProviderConfigProbing({}, { DESKPILOT_BASE_URL: server.baseUrl, OPENROUTER_API_KEY: 'sk-or-unrelated' });
    expect(config).toMatchObject({ model: 'served-model', custom: true, apiKey: undefined, label: `the server at ${server.baseUrl}` });
    expect(server.hits).toEqual(['GET /v1/models']);
    const silent = await fakeServer('not-openai');
    await expect(resolveProviderConfigProbing({}, { DESKPILOT_BASE_URL: silent.baseUrl })).rejects.toThrow(
      new RegExp(`^No model chosen for the server at ${silent.baseUrl.replaceAll('.', '\\.')}\\. .*DESKPILOT_MODEL`),
    );
  });
});

describe('defaultLocalServers', () => {
  it('reads OLLAMA_HOST the way Ollama does', () => {
    const ollama = (host?: string): string | undefined => defaultLocalServers(host === undefined ? {} : { OLLAMA_HOST: host })[0]?.baseUrl;
    expect(ollama()).toBe('http://127.0.0.1:11434/v1');
    expect(ollama('0.0.0.0')).toBe('http://127.0.0.1:11434/v1');
    expect(ollama('127.0.0.1:5555')).toBe('http://127.0.0.1:5555/v1');
    expect(ollama('http://gpu-box:8080')).toBe('http://gpu-box:8080/v1');
    expect(defaultLocalServers({})[1]).toEqual({ preset: 'lmstudio', baseUrl: 'http://127.0.0.1:1234/v1' });
  });
});
