import { DeskpilotError, NodeNotFoundError, PermissionDeniedError, ProcessExitedError, TimeoutError, UnsupportedOperationError } from '../../../shared/errors';

/** AXError codes (AXError.h). */
export const AXError = {
  Success: 0,
  Failure: -25200,
  IllegalArgument: -25201,
  InvalidUIElement: -25202,
  InvalidUIElementObserver: -25203,
  CannotComplete: -25204,
  AttributeUnsupported: -25205,
  ActionUnsupported: -25206,
  NotificationUnsupported: -25207,
  NotImplemented: -25208,
  NotificationAlreadyRegistered: -25209,
  NotificationNotRegistered: -25210,
  APIDisabled: -25211,
  NoValue: -25212,
  ParameterizedAttributeUnsupported: -25213,
  NotEnoughPrecision: -25214,
} as const;

const NAMES = new Map<number, string>(Object.entries(AXError).map(([name, code]) => [code, `kAXError${name}`]));

export const PERMISSION_HELP =
  'Deskpilot needs Accessibility access. Open System Settings → Privacy & Security → Accessibility and turn it on for Deskpilot ' +
  '(or for the terminal it was started from), then restart Deskpilot. If it is already on, turn it off and on again: a rebuilt app loses the grant.';

export function permissionDenied(cause?: unknown): PermissionDeniedError {
  return new PermissionDeniedError(PERMISSION_HELP, cause === undefined ? {} : { cause });
}

export function axErrorName(code: number): string {
  return NAMES.get(code) ?? `AXError ${code}`;
}

/** Whether a read failed only because the element has no such attribute or no value for it. */
export function isMissing(code: number): boolean {
  return code === AXError.NoValue || code === AXError.AttributeUnsupported || code === AXError.NotImplemented;
}

/**
 * An app that fails AX calls with kAXErrorCannotComplete at once, long before the messaging
 * timeout could run out: it does not speak accessibility (a game, a Java app without the Access
 * Bridge, a helper with no AppKit). Waiting or retrying will not help, so it is not a TIMEOUT.
 */
export class NoAccessibilityError extends UnsupportedOperationError {
  constructor(pid: number, call: string, data: Record<string, unknown>) {
    super(`pid ${pid} answered ${call} with kAXErrorCannotComplete at once: the app does not seem to support accessibility`, { data });
    this.name = 'NoAccessibilityError';
  }
}

/** A CannotComplete that came back faster than this share of the messaging timeout was not a timeout. */
const AT_ONCE_SHARE = 0.25;

/** How long the failing call took, against the messaging timeout it ran under, when the caller measured it. */
export interface CallTiming {
  elapsedMs: number;
  timeoutMs: number;
}

/**
 * An AXError as a typed error. CannotComplete means the app did not answer within the
 * messaging timeout, that it is gone (the pid tells), or, when it came back at once, that
 * the app has no accessibility support at all (the timing tells).
 */
export function mapAxError(code: number, call: string, pid: number, isAlive: (pid: number) => boolean, timing?: CallTiming): DeskpilotError {
  const data = { data: { axError: code, call } };
  switch (code) {
    case AXError.APIDisabled:
      return permissionDenied();
    case AXError.CannotComplete:
      if (!isAlive(pid)) return new ProcessExitedError(pid, data);
      if (timing !== undefined && timing.elapsedMs < timing.timeoutMs * AT_ONCE_SHARE) return new NoAccessibilityError(pid, call, data.data);
      return new TimeoutError(`pid ${pid} did not answer ${call} in time: the app is busy or not responding`, data);
    case AXError.InvalidUIElement:
      return new NodeNotFoundError(`node not found: the element went away (${call})`, data);
    default:
      return new DeskpilotError('ACTION_FAILED', `${call} failed with ${axErrorName(code)}`, data);
  }
}
