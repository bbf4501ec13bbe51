/**
 * Typed errors shared by every layer. Each has a stable `code` so callers can branch
 * on it, and errors cross process boundaries through `serializeError`/`deserializeError`
 * rather than structured clone, which drops the subclass and `code`.
 */
export const ERROR_CODES = [
  'NODE_NOT_FOUND',
  'DRAG_TARGET_NOT_FOUND',
  'NOT_SETTABLE',
  'PROCESS_EXITED',
  'VALIDATION',
  'PERMISSION_DENIED',
  'UI_NOT_AVAILABLE',
  'TIMEOUT',
  'ACTION_FAILED',
  /** One of the user's MCP servers could not start, crashed, or failed a call. */
  'TOOL_SERVER',
  'PROVIDER_AUTH',
  'PROVIDER_RATE_LIMIT',
  'PROVIDER_SERVER',
  'PROVIDER_CONNECTION',
  'PROVIDER_STREAM',
  /** The model stream made no progress for too long, or took too long in all (data.reason: idle | total). */
  'PROVIDER_TIMEOUT',
  'PROVIDER_CONFIG',
  /** The user declined a tool call that needed their approval, or nobody could approve it. */
  'DENIED',
  /** The safety gate refused text for a secret field that the user did not write themselves. */
  'SECRET_FIELD',
  /** The user stopped the task: a cancel, not a failure; callers show it as stopped, not as an error. */
  'STOPPED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return ERROR_CODES.some((code) => code === value);
}

/**
 * Marks a DeskpilotError, in the manner of vercel/ai's `isInstance`: `instanceof` fails across
 * realms and bundles (the CLI bundle, a second copy of this module), the registered symbol does not.
 */
const MARKER = Symbol.for('deskpilot.error');

export interface ErrorDetails {
  cause?: unknown;
  isRetryable?: boolean;
  /** Extra data a caller can act on, such as the closest candidate ids. */
  data?: Record<string, unknown>;
}

export class DeskpilotError extends Error {
  private readonly [MARKER] = true;
  readonly code: ErrorCode;
  readonly isRetryable: boolean;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'DeskpilotError';
    this.code = code;
    this.isRetryable = details.isRetryable ?? false;
    this.data = details.data;
  }

  /** Whether `error` is a DeskpilotError (or one of its kinds), by its marker rather than by `instanceof`. */
  static isInstance(error: unknown): error is DeskpilotError {
    return typeof error === 'object' && error !== null && MARKER in error && (error as { [MARKER]: unknown })[MARKER] === true;
  }
}

export class ValidationError extends DeskpilotError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('VALIDATION', message, details);
    this.name = 'ValidationError';
  }
}

export class NodeNotFoundError extends DeskpilotError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('NODE_NOT_FOUND', message, details);
    this.name = 'NodeNotFoundError';
  }
}

export const OBJECT_GONE = 'object-gone';

/**
 * The element's object no longer exists in the app (AT-SPI UnknownObject): apps that make objects
 * on demand (a sheet's cells, a re-rendered web list, a Qt view's items) drop and remake them
 * while the element itself stays. `data.reason` says so across IPC, where the kind is lost.
 */
export class ObjectGoneError extends NodeNotFoundError {
  constructor(message = 'the element no longer exists in the app; read the tree again', details: ErrorDetails = {}) {
    super(message, { ...details, data: { ...details.data, reason: OBJECT_GONE } });
    this.name = 'ObjectGoneError';
  }
}

/** Whether an error says the element's object was gone, here or after serializeError. */
export function isObjectGone(error: unknown): boolean {
  return hasErrorCode(error, 'NODE_NOT_FOUND') && error.data?.['reason'] === OBJECT_GONE;
}

export class NotSettableError extends DeskpilotError {
  constructor(message = "element does not support set_value; try 'type'", details: ErrorDetails = {}) {
    super('NOT_SETTABLE', message, details);
    this.name = 'NotSettableError';
  }
}

export class ProcessExitedError extends DeskpilotError {
  constructor(pid: number, details: ErrorDetails = {}) {
    super('PROCESS_EXITED', `process not running (pid ${pid})`, details);
    this.name = 'ProcessExitedError';
  }
}

/** Raised by a platform that cannot do what was asked (Windows, a missing display). */
export class UnsupportedOperationError extends DeskpilotError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('UI_NOT_AVAILABLE', message, details);
    this.name = 'UnsupportedOperationError';
  }
}

/**
 * Why the desktop cannot be read or driven, for UI_NOT_AVAILABLE's `data.reason`:
 * no-display: no X server answers on DISPLAY; wayland: a Wayland session without XWayland;
 * no-a11y-bus: no session bus or no AT-SPI accessibility bus; registry-gone: the AT-SPI
 * registry daemon is not running or died; a11y-disabled: accessibility is switched off.
 */
export const UNAVAILABLE_REASONS = ['no-display', 'no-a11y-bus', 'registry-gone', 'a11y-disabled', 'wayland'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/**
 * The desktop itself is broken: the message is `<what is missing>; <how to fix it>` on one line,
 * and `data` keeps the reason and both halves, so a window can say them in its own language.
 */
export class UiNotAvailableError extends UnsupportedOperationError {
  constructor(reason: UnavailableReason, what: string, fix: string, details: ErrorDetails = {}) {
    super(oneLine(`${what}; ${fix}`), { ...details, data: { reason, what: oneLine(what), fix: oneLine(fix), ...details.data } });
    this.name = 'UiNotAvailableError';
  }
}

/** The reason of a UI_NOT_AVAILABLE error, when it has one of the known ones. */
export function unavailableReason(error: { code?: string; data?: Record<string, unknown> | undefined } | undefined): UnavailableReason | undefined {
  const reason = error?.code === 'UI_NOT_AVAILABLE' ? error.data?.['reason'] : undefined;
  return UNAVAILABLE_REASONS.find((each) => each === reason);
}

/** Error lines are read in terminals and logs one per line: newlines and runs of spaces become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export class PermissionDeniedError extends DeskpilotError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('PERMISSION_DENIED', message, details);
    this.name = 'PermissionDeniedError';
  }
}

export class TimeoutError extends DeskpilotError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('TIMEOUT', message, { isRetryable: true, ...details });
    this.name = 'TimeoutError';
  }
}

/** The user stopped the task: its own kind, so a stop is never reported as a failure. */
export class StoppedError extends DeskpilotError {
  constructor(message = 'stopped by the user', details: ErrorDetails = {}) {
    super('STOPPED', message, details);
    this.name = 'StoppedError';
  }
}

export interface SerializedError {
  code: ErrorCode;
  message: string;
  isRetryable: boolean;
  data?: Record<string, unknown>;
}

export function isDeskpilotError(error: unknown): error is DeskpilotError {
  return DeskpilotError.isInstance(error);
}

/** Whether `error` is a DeskpilotError with this code, here or after a trip through serializeError/deserializeError. */
export function hasErrorCode(error: unknown, code: ErrorCode): error is DeskpilotError {
  return DeskpilotError.isInstance(error) && error.code === code;
}

/** Whether a value has the shape serializeError gives (a tool result's `data.error`, an IPC reply's error). */
export function isSerializedError(value: unknown): value is SerializedError {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message, isRetryable } = value as Record<string, unknown>;
  return isErrorCode(code) && typeof message === 'string' && typeof isRetryable === 'boolean';
}

/** Anything thrown becomes a plain object; unknown errors keep their message under INTERNAL. */
export function serializeError(error: unknown): SerializedError {
  if (DeskpilotError.isInstance(error)) {
    return {
      code: error.code,
      message: error.message,
      isRetryable: error.isRetryable,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message, isRetryable: false };
}

/** The kinds that are a code and a message and nothing more, rebuilt as themselves after a boundary. */
const KINDS: Partial<Record<ErrorCode, new (message: string, details: ErrorDetails) => DeskpilotError>> = {
  VALIDATION: ValidationError,
  NODE_NOT_FOUND: NodeNotFoundError,
  NOT_SETTABLE: NotSettableError,
  PERMISSION_DENIED: PermissionDeniedError,
  TIMEOUT: TimeoutError,
  UI_NOT_AVAILABLE: UnsupportedOperationError,
  STOPPED: StoppedError,
};

/** The error again on this side of a boundary: its code, kind (where it has one of its own) and marker survive. */
export function deserializeError(serialized: SerializedError): DeskpilotError {
  const details: ErrorDetails = {
    isRetryable: serialized.isRetryable,
    ...(serialized.data === undefined ? {} : { data: serialized.data }),
  };
  const Kind = KINDS[serialized.code];
  return Kind === undefined ? new DeskpilotError(serialized.code, serialized.message, details) : new Kind(serialized.message, details);
}
