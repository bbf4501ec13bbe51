import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serializeError } from '../shared/errors';
import { errorText } from '../core/tools/action';
import { fitJson, fitText } from '../core/tools/budget';

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
