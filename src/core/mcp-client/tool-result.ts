import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../tools/types';

/** Most characters of one external tool's result the model reads; a server may send megabytes. */
export const MAX_RESULT_CHARS = 12_000;

/**
 * An MCP tool result as the agent's ToolResult. Text is kept; images are named, not sent (the
 * model reads text); structured content is JSON. Everything is cut to a budget, because the
 * server is someone else's code. The registry then quotes it as untrusted data, like UI text.
 */
export function toolResultOf(result: CallToolResult, maxChars = MAX_RESULT_CHARS): ToolResult {
  const parts: string[] = [];
  for (const item of result.content) {
    if (item.type === 'text') parts.push(item.text);
    else if (item.type === 'image' || item.type === 'audio')
      parts.push(`[${item.type} ${item.mimeType}, ${Math.round((item.data.length * 3) / 4)} bytes, not shown]`);
    else if (item.type === 'resource') parts.push('text' in item.resource ? item.resource.text : `[resource ${item.resource.uri}]`);
    else if (item.type === 'resource_link') parts.push(`[resource ${item.uri}]`);
  }
  if (result.structuredContent !== undefined && parts.length === 0) parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join('\n');
  const message = text.length > maxChars ? `${text.slice(0, maxChars)}\n… cut: ${text.length - maxChars} more characters` : text;
  return {
    success: result.isError !== true,
    message: message === '' ? '(no output)' : message,
    ...(result.structuredContent === undefined ? {} : { data: result.structuredContent }),
  };
}
