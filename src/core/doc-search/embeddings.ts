import { DeskpilotError } from '../../shared/errors';

export interface EmbeddingsEndpoint {
  /** The provider's OpenAI-compatible base URL, ending before /embeddings (…/v1). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface EmbedOptions {
  signal?: AbortSignal;
  /** Attempts per batch before giving up on a 429 or 5xx. */
  attempts?: number;
  /** The first backoff; each retry doubles it, with jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  fetch?: typeof fetch;
}

/** Texts per request: the OpenAI API takes up to 2048, local servers are happier with fewer. */
export const EMBED_BATCH = 64;

/** The endpoint has no embeddings (404, 405, 501, or a model that is not an embedding model): search stays full-text. */
export class EmbeddingsUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingsUnavailable';
  }
}

const sleepFor = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });

/** Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Embeds texts through POST {baseUrl}/embeddings, in order. A 429 or 5xx is retried with
 * exponential backoff and full jitter, waiting at least what Retry-After asks; an abort stops
 * at once. An endpoint that has no embeddings throws EmbeddingsUnavailable; a bad key, a
 * PROVIDER_AUTH error.
 */
export async function embed(endpoint: EmbeddingsEndpoint, texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
  const { attempts = 6, baseDelayMs = 500, maxDelayMs = 30_000, sleep = sleepFor, random = Math.random, fetch: doFetch = fetch } = options;
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/embeddings`;
  for (let attempt = 1; ; attempt += 1) {
    const response = await doFetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey === undefined ? {} : { authorization: `Bearer ${endpoint.apiKey}` }),
        ...endpoint.headers,
      },
      body: JSON.stringify({ model: endpoint.model, input: texts }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }).catch((error: unknown) => {
      if (options.signal?.aborted === true) throw error;
      throw new DeskpilotError('PROVIDER_CONNECTION', `embeddings endpoint ${url} unreachable: ${(error as Error).message}`, {
        isRetryable: true,
        cause: error,
      });
    });
    if (response.ok) {
      const body = (await response.json()) as { data?: { index?: number; embedding?: number[] }[] };
      const rows = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      if (rows.length !== texts.length || rows.some((row) => !Array.isArray(row.embedding)))
        throw new EmbeddingsUnavailable(`${url} answered without one embedding per input`);
      return rows.map((row) => Float32Array.from(row.embedding as number[]));
    }
    const status = response.status;
    const detail = (await response.text().catch(() => '')).slice(0, 200);
    if (status === 401 || status === 403) throw new DeskpilotError('PROVIDER_AUTH', `embeddings: the provider refused the API key (${status})`);
    if (status === 404 || status === 405 || status === 501 || status === 400)
      throw new EmbeddingsUnavailable(`no embeddings for model ${endpoint.model} at ${url} (${status}${detail === '' ? '' : `: ${detail}`})`);
    const retryable = status === 429 || status >= 500;
    if (!retryable || attempt >= attempts) {
      throw new DeskpilotError(
        status === 429 ? 'PROVIDER_RATE_LIMIT' : 'PROVIDER_SERVER',
        `embeddings failed with ${status} after ${attempt} attempts${detail === '' ? '' : `: ${detail}`}`,
        {
          isRetryable: true,
        },
      );
    }
    const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)) * random();
    await sleep(Math.max(backoff, retryAfterMs(response.headers.get('retry-after')) ?? 0), options.signal);
  }
}
