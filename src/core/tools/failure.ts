import { isErrorCode, isSerializedError, type ErrorCode, type SerializedError } from '../../shared/errors';
import type { ToolResult } from './types';

/** A failure message written for the model starts with its code (`DENIED: …`); the code is kept apart. */
const CODE_PREFIX = /^([A-Z][A-Z_]+): /;

/**
 * The typed error of a failed result: the one it carries, else the one in its data (`data.error`,
 * as an action result or a thrown tool has it), else `data.code` or the message's leading code
 * with the message, else ACTION_FAILED. Undefined for a result that succeeded.
 */
export function failureOf(result: ToolResult): SerializedError | undefined {
  if (result.success) return undefined;
  if (result.error !== undefined) return result.error;
  const data: Record<string, unknown> = typeof result.data === 'object' && result.data !== null ? { ...result.data } : {};
  const inner = data['error'];
  if (isSerializedError(inner)) return inner;
  const found = CODE_PREFIX.exec(result.message)?.[1];
  const prefix = isErrorCode(found) ? found : undefined;
  const code: ErrorCode = isErrorCode(data['code']) ? data['code'] : (prefix ?? 'ACTION_FAILED');
  const message = prefix === undefined ? result.message : result.message.slice(prefix.length + 2);
  return { code, message, isRetryable: false };
}

/** The result with its typed error filled in when it failed; a success is returned as it is. */
export function withFailure(result: ToolResult): ToolResult {
  const error = failureOf(result);
  return error === undefined || result.error !== undefined ? result : { ...result, error };
}
