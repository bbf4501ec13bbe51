import { ValidationError } from '../shared/errors';

/** How the MCP server is limited: set once from the command line, for the life of the server. */
export interface McpOptions {
  /** Most characters in one tool result, in its text and in its structured form alike. */
  maxChars: number;
  /** No ui_action tool at all: the server can only read. */
  readOnly: boolean;
  /** App names the server may touch (case-insensitive); undefined allows every app. */
  apps: readonly string[] | undefined;
  /**
   * "Never take my pointer or keyboard" (--keep-devices): an MCP server has nobody to ask, so a
   * step only synthetic input can do is refused with PERMISSION_DENIED and says why.
   */
  keepDevices?: boolean;
}

export const DEFAULT_MAX_CHARS = 20_000;
/** Below this a tree result would be mostly the truncation note. */
export const MIN_MAX_CHARS = 1_000;

export function parseMcpOptions(values: Record<string, string | boolean | string[] | undefined>): McpOptions {
  const raw = values['max-chars'];
  let maxChars = DEFAULT_MAX_CHARS;
  if (raw !== undefined) {
    maxChars = Number(raw);
    if (!Number.isInteger(maxChars) || maxChars < MIN_MAX_CHARS) {
      throw new ValidationError(`--max-chars needs a whole number of at least ${MIN_MAX_CHARS}, got '${String(raw)}'`);
    }
  }
  let apps: string[] | undefined;
  const list = values['apps'];
  if (list !== undefined) {
    apps = String(list)
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    if (apps.length === 0) throw new ValidationError('--apps needs app names separated by commas, such as --apps gedit,zenity');
  }
  return { maxChars, readOnly: values['read-only'] === true, apps, ...(values['keep-devices'] === true ? { keepDevices: true } : {}) };
}
