import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../tools/types';
import { fitJson } from '../tools/budget';
import { depthOf } from './limits';

/** Most characters of one external tool's result the model reads; a server may send megabytes. */
export const MAX_RESULT_CHARS = 12_000;

/**
 * Most images of one result the model sees, and their most bytes together. A screenshot is
 * 0.1–2 MB; more than a few per call is a server dumping files, and every image is sent again
 * with each model call of the ask, so the budget is per result and small.
 */
export const MAX_RESULT_IMAGES = 4;
export const MAX_RESULT_IMAGE_BYTES = 5_000_000;

/** What vision models take (OpenAI, Gemini, Claude and the local servers agree on these four). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Deepest nesting of structured content kept. Printing, logging or sending a value nested
 * 100,000 deep over IPC overflows the stack ("Maximum call stack size exceeded"), and a
 * server's 10 MB answer can nest that deep.
 */
export const MAX_DATA_DEPTH = 32;

type Image = NonNullable<ToolResult['images']>[number];

function byteCount(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

/**
 * Which images are kept, in order, within the budget. One a model cannot take is named with
 * the reason: a format no provider reads or broken data would fail the whole request, and the
 * agent would take that for a model without vision.
 */
class ImageBudget {
  readonly kept: Image[] = [];
  private bytes = 0;

  /** The line that names the image in the text. */
  take(mimeType: string, data: string): string {
    const size = byteCount(data);
    const name = `[image ${mimeType}, ${size} bytes`;
    const leftOut = (reason: string) => `${name}, left out: ${reason}]`;
    if (!IMAGE_TYPES.has(mimeType.toLowerCase())) return leftOut('not a format models read (PNG, JPEG, GIF, WebP)');
    if (data.length % 4 !== 0 || !BASE64.test(data)) return leftOut('the data is not base64');
    if (this.kept.length >= MAX_RESULT_IMAGES) return leftOut(`a result shows at most ${MAX_RESULT_IMAGES} images`);
    if (this.bytes + size > MAX_RESULT_IMAGE_BYTES) return leftOut(`a result shows at most ${MAX_RESULT_IMAGE_BYTES / 1_000_000} MB of images`);
    this.bytes += size;
    this.kept.push({ mimeType: mimeType.toLowerCase(), data });
    return `${name}]`;
  }
}

/**
 * An MCP tool result as the agent's ToolResult. Text is kept; images (and image blobs of
 * embedded resources) travel in `images`, within a budget, each named in the text too, as a
 * model without vision reads only that; structured content is JSON. Everything is cut to a
 * budget, because the server is someone else's code. The registry then quotes it as untrusted
 * data, like UI text, and the agent frames the images the same way.
 */
export function toolResultOf(result: CallToolResult, maxChars = MAX_RESULT_CHARS): ToolResult {
  const parts: string[] = [];
  const images = new ImageBudget();
  for (const item of result.content) {
    if (item.type === 'text') parts.push(item.text);
    else if (item.type === 'image') parts.push(images.take(item.mimeType, item.data));
    else if (item.type === 'audio') parts.push(`[audio ${item.mimeType}, ${byteCount(item.data)} bytes, not shown]`);
    else if (item.type === 'resource') {
      const { resource } = item;
      if ('text' in resource) parts.push(resource.text);
      else if (resource.mimeType?.toLowerCase().startsWith('image/') === true)
        parts.push(`${images.take(resource.mimeType, resource.blob)} from ${resource.uri}`);
      else parts.push(`[resource ${resource.uri}]`);
    } else if (item.type === 'resource_link') parts.push(`[resource ${item.uri}]`);
  }
  const structured = result.structuredContent === undefined ? undefined : dataOf(result.structuredContent, maxChars);
  if (structured !== undefined && (parts.length === 0 || structured.note !== undefined)) parts.push(structured.note ?? JSON.stringify(structured.data));
  const text = parts.join('\n');
  const message = text.length > maxChars ? `${text.slice(0, maxChars)}\n… cut: ${text.length - maxChars} more characters` : text;
  return {
    success: result.isError !== true,
    message: message === '' ? '(no output)' : message,
    ...(structured?.data === undefined ? {} : { data: structured.data }),
    ...(images.kept.length === 0 ? {} : { images: images.kept }),
    ...(structured?.truncated === true ? { truncated: true } : {}),
  };
}

/**
 * Structured content as the result's data, held to the text's budget: it travels in every
 * tool_result event (to the window, the CLI's --json, the logs). Too deep to walk safely, it is
 * left out and said so; too large, it is cut as the built-in tools' data is (fitJson), or left out
 * when cutting its strings and arrays cannot make it fit.
 */
function dataOf(content: Record<string, unknown>, maxChars: number): { data?: Record<string, unknown>; note?: string; truncated?: boolean } {
  if (depthOf(content, MAX_DATA_DEPTH + 1) > MAX_DATA_DEPTH) {
    return { note: `[structured content left out: it nests more than ${MAX_DATA_DEPTH} levels deep]`, truncated: true };
  }
  const fitted = fitJson(content, maxChars);
  if (!fitted.truncated) return { data: content };
  // fitJson cuts strings and arrays; a value of keys and numbers alone stays over the budget.
  const size = JSON.stringify(fitted.value).length;
  if (size > maxChars) return { note: `[structured content left out: ${size} characters, over the limit of ${maxChars}]`, truncated: true };
  return { data: fitted.value, truncated: true };
}
