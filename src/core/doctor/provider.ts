/**
 * The provider part of `deskpilot doctor`: is one configured, and with `--online`, one tiny
 * chat request with a tool attached, which answers four questions at once: is the server
 * reachable, is the key accepted, does the model exist, does it take tools.
 */
import type { DoctorCheck } from '../../shared/ipc';
import { resolveProviderConfigProbing, type Environment, type ProviderSettings, type ResolvedProviderConfig } from '../agent/provider';
import { displayUrl } from '../provider-config/config';
import { connectionFailure } from '../agent/provider/map-error';
import { redact, secretsOf } from '../agent/provider/redact';

/** A cloud model answering a five-word prompt takes a second or two; this is the most it may take. */
export const ONLINE_TIMEOUT_MS = 15_000;

const PROBE: Record<string, unknown> = {
  messages: [{ role: 'user', content: 'Reply with OK.' }],
  tools: [{ type: 'function', function: { name: 'ping', description: 'Answers pong.', parameters: { type: 'object', properties: {} } } }],
  stream: false,
};

export async function providerConfigCheck(settings: ProviderSettings, env: Environment): Promise<{ check: DoctorCheck; config?: ResolvedProviderConfig }> {
  try {
    const config = await resolveProviderConfigProbing(settings, env, { timeoutMs: 1000 });
    // Named as the provider's own errors name it: "OpenAI", "Ollama at …", "the server at …".
    const at = /\bat \S+$/.test(config.label) ? '' : ` at ${displayUrl(config.baseUrl)}`;
    return { check: { id: 'provider', status: 'ok', figure: redact(`${config.label}, model ${config.model || '(default)'}${at}`, secretsOf(config)) }, config };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const keys = secretsOf({ apiKey: env['DESKPILOT_API_KEY'] ?? settings.apiKey });
    return { check: { id: 'provider', status: 'fail', figure: 'no usable provider configured', fix: redact(message, keys), fixKey: 'provider-config' } };
  }
}

type OnlineId = 'provider-reachable' | 'provider-key' | 'provider-model' | 'provider-tools';
const ONLINE: readonly OnlineId[] = ['provider-reachable', 'provider-key', 'provider-model', 'provider-tools'];

/** The four online checks: each after the first is `skip` once an earlier one failed. */
function outcome(failedAt: OnlineId | undefined, figures: Partial<Record<OnlineId, string>>, failure?: Omit<DoctorCheck, 'id' | 'status'>): DoctorCheck[] {
  const index = failedAt === undefined ? ONLINE.length : ONLINE.indexOf(failedAt);
  return ONLINE.map((id, position) => {
    if (position < index) return { id, status: 'ok', figure: figures[id] ?? 'yes' };
    if (position === index && failure !== undefined) return { id, status: 'fail', ...failure };
    return { id, status: 'skip', figure: 'not checked: an earlier provider check failed' };
  });
}

/**
 * The four online checks, every figure and fix with the key, header values and URL
 * credentials taken out: a server's error body is quoted, and servers echo what they were sent.
 */
export async function providerOnlineChecks(config: ResolvedProviderConfig, fetchImpl: typeof fetch = fetch): Promise<DoctorCheck[]> {
  const secrets = secretsOf(config);
  const checks = await onlineChecks(config, fetchImpl);
  return checks.map((check) => ({
    ...check,
    ...(check.figure === undefined ? {} : { figure: redact(check.figure, secrets) }),
    ...(check.fix === undefined ? {} : { fix: redact(check.fix, secrets) }),
  }));
}

async function onlineChecks(config: ResolvedProviderConfig, fetchImpl: typeof fetch): Promise<DoctorCheck[]> {
  const url = new URL('chat/completions', config.baseUrl.endsWith('/') ? config.baseUrl : `${config.baseUrl}/`);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...config.headers };
  if (config.apiKey !== undefined) headers['authorization'] = `Bearer ${config.apiKey}`;
  // The label the provider's errors use, with the origin where the label has no URL ("OpenAI (https://api.openai.com)").
  const who = /\bat \S+$/.test(config.label) ? config.label : `${config.label} (${url.origin})`;
  let response: Response;
  let body = '';
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: config.model, ...PROBE }),
      signal: AbortSignal.timeout(ONLINE_TIMEOUT_MS),
    });
    body = (await response.text()).slice(0, 2000);
  } catch (error) {
    const why = connectionFailure(error);
    return outcome(
      'provider-reachable',
      {},
      {
        figure: `${who}: ${why === 'other' ? (error instanceof Error ? error.message : String(error)) : `connection ${why}`}`,
        fix: config.presetInfo.local
          ? `${config.presetInfo.startHint ?? `Start ${config.presetInfo.label}.`} Or correct the base URL.`
          : 'check the network, a proxy (HTTPS_PROXY) and the base URL in Settings → Provider or DESKPILOT_BASE_URL',
        fixKey: 'provider-unreachable',
        fixValues: { server: url.origin },
      },
    );
  }
  const status = response.status;
  const reached = `${who} answered (HTTP ${status})`;
  const key = config.apiKey === undefined ? 'no key needed' : 'accepted';
  if (status === 401 || status === 403) {
    return outcome(
      'provider-key',
      { 'provider-reachable': reached },
      {
        figure: `HTTP ${status}: the server refused the API key`,
        fix: `replace the key in Settings → Provider, or DESKPILOT_API_KEY${config.presetInfo.keyEnv === undefined ? '' : ` / ${config.presetInfo.keyEnv}`}`,
        fixKey: 'provider-key',
      },
    );
  }
  const text = body.toLowerCase();
  const aboutModel = /model/.test(text) && /(not found|does not exist|not exist|unknown|invalid|no such|not available|not a valid)/.test(text);
  if (status === 404 || (status >= 400 && status < 500 && aboutModel && !/tool|function/.test(text))) {
    return outcome(
      'provider-model',
      { 'provider-reachable': reached, 'provider-key': key },
      {
        figure: `HTTP ${status}: model ${config.model || '(default)'} not found`,
        fix: 'choose a model this provider has, in Settings → Provider → Model or DESKPILOT_MODEL',
        fixKey: 'provider-model',
        fixValues: { model: config.model },
      },
    );
  }
  if (status >= 400 && status < 500 && /tool|function/.test(text)) {
    return outcome(
      'provider-tools',
      { 'provider-reachable': reached, 'provider-key': key, 'provider-model': config.model },
      {
        figure: `HTTP ${status}: ${config.model} does not take tools`,
        fix: 'choose a model with tool (function) calling: Deskpilot acts only through tools',
        fixKey: 'provider-tools',
        fixValues: { model: config.model },
      },
    );
  }
  if (status >= 200 && status < 300 && !isChatCompletion(body)) {
    return outcome(
      'provider-model',
      { 'provider-reachable': reached, 'provider-key': key },
      {
        figure: `${who} answered HTTP 200, but not with an OpenAI-compatible reply (${oneLineOf(body) || 'an empty body'})`,
        fix: "check the base URL: it must be the server's OpenAI-compatible API, usually ending in /v1",
      },
    );
  }
  if (status >= 200 && status < 300) {
    return outcome(undefined, {
      'provider-reachable': reached,
      'provider-key': key,
      'provider-model': config.model,
      'provider-tools': 'a request with a tool was answered',
    });
  }
  // 429, 5xx, other 4xx: reachable, and nothing more can be said.
  const checks = outcome('provider-key', { 'provider-reachable': reached });
  return checks.map((check) =>
    check.status === 'skip' ? { ...check, figure: `not known: the server answered HTTP ${status}${body === '' ? '' : ` (${oneLineOf(body)})`}` } : check,
  );
}

/** A Chat Completions answer has `choices`; a web page or another API's JSON does not. (The body read is cut at 2,000 characters.) */
function isChatCompletion(body: string): boolean {
  return /^\s*\{/.test(body) && /"choices"\s*:/.test(body);
}

function oneLineOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
