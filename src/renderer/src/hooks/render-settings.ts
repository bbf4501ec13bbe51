/**
 * How often a streaming answer may re-render its markdown. bench:render loads the page with
 * `?markdownThrottleMs=0` to compare against rendering on every chunk; the app never sets it.
 */
export const MARKDOWN_THROTTLE_MS = readThrottle();

function readThrottle(): number {
  const raw = new URLSearchParams(window.location.search).get('markdownThrottleMs');
  const parsed = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : 50;
}
