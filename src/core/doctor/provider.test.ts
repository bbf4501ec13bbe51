import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProviderConfig } from '../agent/provider';
import { providerConfigCheck, providerOnlineChecks } from './provider';

const KEY = 'sk-doctor-SECRET-98765';
const HEADER_SECRET = 'proxy-token-abcdef123';
let server: Server;
let baseUrl: string;
let answer: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;

beforeAll(async () => {
  server = createServer((request, response) => answer(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A server that quotes back everything it was sent, as careless gateways do. */
const echo =
  (status: number) =>
  (request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, headers: request.headers } }));
  };

const env = (): Record<string, string> => ({
  DESKPILOT_BASE_URL: baseUrl,
  DESKPILOT_API_KEY: KEY,
  DESKPILOT_MODEL: 'tiny',
  DESKPILOT_HEADERS: `X-Proxy-Auth: ${HEADER_SECRET}`,
});

const printed = (checks: unknown): string => JSON.stringify(checks);

describe('doctor --online prints no secret', () => {
  it.each([401, 500, 429])('an error body (HTTP %i) that echoes the key and headers is quoted without them', async (status) => {
    answer = echo(status);
    const checks = await providerOnlineChecks(resolveProviderConfig({}, env()));
    expect(printed(checks)).toContain(`HTTP ${status}`);
    expect(printed(checks)).not.toContain(KEY);
    expect(printed(checks)).not.toContain(HEADER_SECRET);
  });

  it('a base URL with user:password is sent as Basic authentication and never printed, even when the server echoes it', async () => {
    answer = echo(500);
    const withCredentials = { DESKPILOT_BASE_URL: baseUrl.replace('http://', 'http://ada:hunter2hunter@'), DESKPILOT_MODEL: 'tiny' };
    const checks = await providerOnlineChecks(resolveProviderConfig({}, withCredentials));
    expect(printed(checks)).toContain('HTTP 500');
    expect(printed(checks)).not.toContain('hunter2hunter');
    expect(printed(checks)).not.toContain(Buffer.from('ada:hunter2hunter').toString('base64'));
    const { check } = await providerConfigCheck({}, withCredentials);
    expect(check.figure).toBe(`the server at ${baseUrl}, model tiny`);
  });
});

describe('doctor labels the provider as its errors do', () => {
  it('names a base URL of the user own as "the server at …"', async () => {
    answer = echo(401);
    const { check } = await providerConfigCheck({}, env());
    expect(check.figure).toBe(`the server at ${baseUrl}, model tiny`);
    const checks = await providerOnlineChecks(resolveProviderConfig({}, env()));
    expect(checks[0]).toMatchObject({ id: 'provider-reachable', status: 'ok', figure: `the server at ${baseUrl} answered (HTTP 401)` });
  });

  it('a 200 that is not a chat completion says exactly that', async () => {
    answer = (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Router login</html>');
    const checks = await providerOnlineChecks(resolveProviderConfig({}, env()));
    expect(checks.find((check) => check.status === 'fail')).toMatchObject({
      id: 'provider-model',
      figure: `the server at ${baseUrl} answered HTTP 200, but not with an OpenAI-compatible reply (<html>Router login</html>)`,
    });
  });

  it('a preset keeps its name', async () => {
    const { check } = await providerConfigCheck({}, { DESKPILOT_PROVIDER: 'openai', OPENAI_API_KEY: KEY });
    expect(check.figure).toBe('OpenAI, model gpt-4o-mini at https://api.openai.com/v1');
  });
});
