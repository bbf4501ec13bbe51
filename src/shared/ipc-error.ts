/**
 * How a failed call reaches the renderer. Electron's context bridge reduces a thrown Error to
 * its message, so the preload rejects with this plain object instead: the same envelope main and
 * the host use (a code from ERROR_CODES, the message, the data), minus what only code needs.
 * The window reads the code from here; nothing parses it back out of a message.
 */
import { isErrorCode, type ErrorCode, type SerializedError } from './errors';

export interface IpcError {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

/** The envelope for a serialized error, as plain data that survives the context bridge. */
export function toIpcError({ code, message, data }: SerializedError): IpcError {
  return data === undefined ? { code, message } : { code, message, data };
}

/** Whether a rejection is the preload's envelope. */
export function isIpcError(value: unknown): value is IpcError {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return isErrorCode(code) && typeof message === 'string';
}
