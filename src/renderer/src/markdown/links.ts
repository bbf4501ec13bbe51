import type { MouseEvent } from 'react';
import { isHttpsUrl } from '../../../shared/urls';

/**
 * Clicks on links inside rendered markdown never navigate the window: https links open in the
 * system browser through main, anything else does nothing.
 */
export function handleMarkdownClick(event: MouseEvent<HTMLElement>): void {
  const target = event.target instanceof Element ? event.target.closest('a') : null;
  if (target === null) return;
  event.preventDefault();
  const href = target.getAttribute('href') ?? '';
  if (!isHttpsUrl(href)) return;
  window.deskpilot.openExternal({ url: href }).catch((error: unknown) => console.warn('could not open link', error));
}
