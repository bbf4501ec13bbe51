/**
 * The one rule for links that leave the app: https only. Parsed with URL, so `HTTPS://x` counts
 * and `https:` inside a path or a `javascript:` URL does not. Shared by main (which opens them)
 * and the renderer (which marks the others), so the two never disagree.
 */
export function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
