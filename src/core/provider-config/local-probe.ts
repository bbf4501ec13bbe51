import type { Environment } from './environment';
import type { PresetName } from './presets';

/** Loopback refuses at once when nothing listens; the timeout only bounds a server that hangs. */
export const PROBE_TIMEOUT_MS = 1_500;

export interface LocalServer {
  preset: Extract<PresetName, 'ollama' | 'lmstudio'>;
  /** The OpenAI-compatible base, ending in /v1. */
  baseUrl: string;
}

export interface ProbeOptions {
  /** Where to look, in order of preference. Default: Ollama (OLLAMA_HOST or 127.0.0.1:11434), then LM Studio (127.0.0.1:1234). */
  servers?: LocalServer[];
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export interface ProbeResult {
  found?: { server: LocalServer; models: string[] };
  /** Servers that answered but have no model loaded, so the error can say "pull or load one". */
  empty: LocalServer[];
}

/** Ollama's own variable for where it listens (`127.0.0.1:11434`, `http://host:port`, `0.0.0.0`). */
export function ollamaBaseUrl(env: Environment): string {
  const host = env['OLLAMA_HOST']?.trim();
  if (host === undefined || host === '') return 'http://127.0.0.1:11434/v1';
  const withScheme = /^https?:\/\//.test(host) ? host : `http://${host}`;
  try {
    const url = new URL(withScheme);
    // 0.0.0.0 is where it listens, not an address to connect to.
    if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
    if (url.port === '' && !/:\d+$/.test(host)) url.port = '11434';
    return `${url.origin}/v1`;
  } catch {
    return 'http://127.0.0.1:11434/v1';
  }
}

export function defaultLocalServers(env: Environment): LocalServer[] {
  return [
    { preset: 'ollama', baseUrl: ollamaBaseUrl(env) },
    { preset: 'lmstudio', baseUrl: 'http://127.0.0.1:1234/v1' },
  ];
}

/** The model ids a server lists at /models, or undefined when it does not answer like an OpenAI-compatible server. */
function listModels(server: LocalServer, options: Required<Pick<ProbeOptions, 'timeoutMs' | 'fetch'>>): Promise<string[] | undefined> {
  return listServerModels(server.baseUrl, options);
}

/** GET <base>/models: the ids, or undefined when the answer is not an OpenAI-compatible model list. */
export async function listServerModels(
  baseUrl: string,
  options: Required<Pick<ProbeOptions, 'timeoutMs' | 'fetch'>> & { headers?: Record<string, string> },
): Promise<string[] | undefined> {
  try {
    const response = await options.fetch(`${baseUrl.replace(/\/+$/, '')}/models`, {
      signal: AbortSignal.timeout(options.timeoutMs),
      ...(options.headers === undefined ? {} : { headers: options.headers }),
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return undefined;
    return body.data.flatMap((entry) =>
      typeof entry === 'object' && entry !== null && typeof (entry as { id?: unknown }).id === 'string' ? [(entry as { id: string }).id] : [],
    );
  } catch {
    return undefined;
  }
}

/**
 * Asks every local server at once, then takes the first in order of preference that
 * answered with at least one model. Never throws: no server is an answer too.
 */
export async function probeLocalServers(env: Environment, options: ProbeOptions = {}): Promise<ProbeResult> {
  const servers = options.servers ?? defaultLocalServers(env);
  const settings = { timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS, fetch: options.fetch ?? globalThis.fetch };
  const answers = await Promise.all(servers.map((server) => listModels(server, settings)));
  const empty: LocalServer[] = [];
  for (const [index, models] of answers.entries()) {
    const server = servers[index] as LocalServer;
    if (models === undefined) continue;
    if (models.length > 0) return { found: { server, models }, empty };
    empty.push(server);
  }
  return { empty };
}
