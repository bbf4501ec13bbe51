/**
 * Nothing printed about a provider may carry a secret: servers echo the key in 401 bodies
 * ("Incorrect API key provided: sk-…"), proxies echo request headers, and a base URL may hold
 * `user:password@`. Every provider error and every `doctor` line goes through redact().
 */

export const REDACTED = '[redacted]';

/** Headers that only say who is calling (OpenRouter's ranking headers); every other header value counts as a secret. */
const PUBLIC_HEADERS = new Set(['http-referer', 'x-title', 'content-type', 'accept', 'user-agent']);

/** Shorter header values would blank out ordinary words; no real token is this short. (The key is always redacted.) */
const MIN_SECRET_LENGTH = 6;

/** The key and the values of every header that may authenticate. */
export function secretsOf(config: { apiKey?: string | undefined; headers?: Record<string, string> }): string[] {
  const headerValues = Object.entries(config.headers ?? {}).flatMap(([name, value]) => {
    if (PUBLIC_HEADERS.has(name.toLowerCase())) return [];
    // "Bearer abc": the token alone may be echoed too.
    return [value, ...value.split(/\s+/).slice(1)];
  });
  const key = config.apiKey?.trim() ?? '';
  return [...(key === '' ? [] : [key]), ...headerValues.map((value) => value.trim()).filter((value) => value.length >= MIN_SECRET_LENGTH)];
}

/**
 * The text with every known secret, every URL's `user:password@` part, and every bearer or
 * basic credential replaced. Longest secrets first, so one that contains another goes whole.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) if (secret !== '') result = result.split(secret).join(REDACTED);
  return result
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s"']+@/gi, '$1***@')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/g, `$1 ${REDACTED}`)
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, REDACTED);
}
