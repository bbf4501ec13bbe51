import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serializeError, type ErrorCode, type SerializedError } from '../shared/errors';
import { fitJson, fitText } from './budget';

/** The next step for a model, per code, where the message alone does not say it. */
const NEXT_STEP: Partial<Record<ErrorCode, string>> = {
  VALIDATION: 'Fix the arguments named above and call again.',
  PROCESS_EXITED: 'The app has exited or the pid is wrong; call ui_apps for the running apps and their pids.',
  PERMISSION_DENIED: 'Do not retry this target.',
  UI_NOT_AVAILABLE: 'This machine cannot do this; do not retry it.',
  TIMEOUT: 'The app did not answer in time (busy or frozen); wait a moment and try again.',
  NOT_SETTABLE: "Use ui_action 'type' on the same id instead.",
};

/** The error as the model sees it: `CODE: message`, then a hint. */
export function errorText(error: SerializedError): string {
  const hint = NEXT_STEP[error.code];
  if (hint === undefined || error.message.includes(hint)) return `${error.code}: ${error.message}`;
  return `${error.code}: ${error.message}${/[.!?]$/.test(error.message) ? '' : '.'} ${hint}`;
}

/**
 * Anything a tool throws becomes an `isError` result the model can read and recover from,
 * never a protocol error. The typed error also goes in `_meta` for programs.
 */
export function toolError(error: unknown, maxChars: number): CallToolResult {
  const serialized = fitJson(serializeError(error), maxChars).value;
  return {
    content: [{ type: 'text', text: fitText(errorText(serialized), maxChars, '').value }],
    isError: true,
    _meta: { 'deskpilot/error': serialized },
  };
}
