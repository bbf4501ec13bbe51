import { APIConnectionError, APIError } from 'openai';
import { DeskpilotError } from '../../../shared/errors';
import { displayUrl, isLoopback, type ResolvedProviderConfig } from '../../provider-config/config';
import { redact, secretsOf } from './redact';
import { refusesImages } from './vision';

/**
 * Turns what the SDK throws before the stream starts into PROVIDER_* errors. Messages
 * are written here rather than passed through, because SDK and server messages can
 * quote request details, and the key must never appear in one.
 */
export function mapRequestError(error: unknown, config: ResolvedProviderConfig, now: () => number = Date.now): DeskpilotError {
  if (error instanceof DeskpilotError) return error;
  const cause = redactedCause(error, secretsOf(config));
  // What the user configured: a base URL of their own is "the server at …", not the preset's name.
  const own = config.label.startsWith('the server at ');
  const label = config.label;
  if (error instanceof APIConnectionError) {
    const reason = connectionFailure(error);
    const hint = config.presetInfo.local
      ? ` Is ${label} running? ${config.presetInfo.startHint ?? ''}`.trimEnd()
      : isLoopback(config.baseUrl)
        ? ' Is the local server running? For Ollama run `ollama serve`; for LM Studio start its local server.'
        : ' Check the network connection and the base URL.';
    const at = own || label.includes(' at ') ? '' : ` at ${displayUrl(config.baseUrl)}`;
    return new DeskpilotError('PROVIDER_CONNECTION', `Could not reach ${label}${at}: ${CONNECTION_WORDS[reason]}.${hint}`, {
      cause,
      isRetryable: true,
      data: { server: own ? displayUrl(config.baseUrl) : config.presetInfo.label, reason },
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const data = { status };
    if (status === 401 || status === 403) {
      return new DeskpilotError(
        'PROVIDER_AUTH',
        `${label} rejected the API key (HTTP ${status}). Check the key in Settings → Provider, or DESKPILOT_API_KEY${config.presetInfo.keyEnv === undefined ? '' : ` / ${config.presetInfo.keyEnv}`}.`,
        { cause, data },
      );
    }
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(error.headers, now);
      const wait = retryAfterMs === undefined ? '' : ` Retry in ${Math.ceil(retryAfterMs / 1000)} s.`;
      return new DeskpilotError('PROVIDER_RATE_LIMIT', `${label} is rate limiting requests (HTTP 429).${wait}`, {
        cause,
        isRetryable: true,
        data: retryAfterMs === undefined ? data : { ...data, retryAfterMs },
      });
    }
    if (status >= 500) {
      return new DeskpilotError('PROVIDER_SERVER', `${label} had a server error (HTTP ${status}).`, {
        cause,
        isRetryable: true,
        data,
      });
    }
    // 400/404/422: the request or the model name is wrong; repeating it will not help.
    // A model without vision, by the server's words: the agent then goes on without images (see vision.ts).
    const images = refusesImages(status, error.message, config.model);
    const hint = images
      ? ' The model may not take images; DESKPILOT_VISION=off sends it text only.'
      : status === 404
        ? ` Check the model name "${config.model}" and the base URL.`
        : '';
    return new DeskpilotError('PROVIDER_SERVER', `${label} refused the request (HTTP ${status}).${hint}`, {
      cause,
      data: images ? { ...data, images: true } : data,
    });
  }
  return new DeskpilotError('PROVIDER_CONNECTION', `The request to ${label} failed.`, { cause, isRetryable: true });
}

/** Why a connection failed, from the error codes Node puts on the cause chain. */
export type ConnectionFailure = 'refused' | 'timeout' | 'dns' | 'reset' | 'tls' | 'other';

const CONNECTION_WORDS: Readonly<Record<ConnectionFailure, string>> = {
  refused: 'the connection was refused',
  timeout: 'it timed out',
  dns: 'the name could not be found (DNS)',
  reset: 'the connection was reset',
  tls: 'the certificate was not accepted',
  other: 'the connection failed',
};

export function connectionFailure(error: unknown): ConnectionFailure {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 6; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    const text = `${typeof code === 'string' ? code : ''} ${current.name} ${current.message}`;
    if (/ECONNREFUSED/.test(text)) return 'refused';
    if (/ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|TimeoutError|timed out/i.test(text)) return 'timeout';
    if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'dns';
    if (/ECONNRESET|EPIPE|UND_ERR_SOCKET/.test(text)) return 'reset';
    if (/CERT|SSL|TLS/.test(text)) return 'tls';
  }
  return 'other';
}

/** `retry-after-ms` (OpenAI's) wins; `retry-after` is seconds or an HTTP date. */
export function parseRetryAfter(headers: Headers | undefined, now: () => number = Date.now): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.round(milliseconds);
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/**
 * Servers echo the key in 401 bodies ("Incorrect API key provided: sk-…"), and the SDK
 * puts the body in its message, so the cause is copied with every occurrence replaced.
 * Status and name survive for debugging; the SDK object itself is dropped.
 */
export function redactedCause(error: unknown, secrets: string | readonly string[] | undefined, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 8) return error;
  const known = secrets === undefined ? [] : typeof secrets === 'string' ? [secrets] : secrets;
  const clean = (text: string): string => redact(text, known);
  const copy = new Error(clean(error.message), { cause: redactedCause(error.cause, secrets, depth + 1) });
  copy.name = error.name;
  copy.stack = clean(error.stack ?? '');
  if (error instanceof APIError) Object.assign(copy, { status: error.status });
  return copy;
}
