import { PermissionDeniedError } from '../../shared/errors';
import type { InputRequest } from './engine';

/**
 * The "Never take my pointer or keyboard" rule for ActionEngine's askBeforeInput: with the
 * setting on, a step that only synthetic input can do is refused before it touches anything,
 * and the model is told to ask the user. Steps with an accessible path never get here.
 */
export function keepDevices(settings: { keepDevices?: boolean | undefined }, request: InputRequest): Promise<void> {
  if (settings.keepDevices !== true) return Promise.resolve();
  return Promise.reject(
    new PermissionDeniedError(
      `this ${request.via} step needs the user's pointer or keyboard (the element has no accessible way to do it), and the user asked Deskpilot never to take them. ` +
        "Ask the user to do this step, or to turn off 'Never take my pointer or keyboard' in Settings.",
      { data: { pid: request.pid, via: request.via, reason: 'keep-devices' } },
    ),
  );
}
