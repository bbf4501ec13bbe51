import type { ToolGist } from '../../shared/tool-gist';
import { parseArguments } from './execute';
import type { AnyTool } from './types';

/**
 * Helpers for the tools' `describe`, and the one place a call's gist is made. A model's arguments
 * are hostile: every string in a gist is cut to a bound here, and the readers cut it again to fit.
 */

const MAX_TEXT = 200;
const MAX_KEY = 120;

type Args = Readonly<Record<string, unknown>>;

function bound(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** A non-empty string or a number from the arguments, as text; undefined for anything else. */
export function argText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? bound(value, MAX_TEXT) : typeof value === 'number' ? String(value) : undefined;
}

/** `role="checkbox" name="Enable"`: every argument but `skip`, in the order the model sent them. */
export function argumentLine(args: Args, skip: readonly string[] = []): string {
  return Object.entries(args)
    .filter(([key]) => !skip.includes(key))
    .map(([key, value]) => `${key}=${JSON.stringify(value) ?? ''}`)
    .join(' ');
}

function objectOf(raw: string): { args: Args; bad?: string } {
  const { value, jsonError } = parseArguments(raw);
  if (jsonError !== undefined) return { args: {}, bad: `(bad JSON) ${raw}` };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { args: {}, bad: raw };
  return { args: value as Args };
}

/**
 * A call in people's words, from the arguments as announced (masked where they hold a secret).
 * A tool without `describe` (a plugin's, an MCP server's), or a name no tool has, reads
 * "Ran <title or name>"; arguments that are not an object still get a key, the raw text.
 */
export function gistOf(tool: AnyTool | undefined, name: string, rawArguments: string): ToolGist {
  const { args, bad } = objectOf(rawArguments);
  const described = bad === undefined ? tool?.describe?.(args) : undefined;
  const gist: ToolGist = described ?? { verb: 'run', target: tool?.title ?? name, key: argumentLine(args) };
  const key = bound(bad ?? gist.key, MAX_KEY);
  return {
    ...gist,
    key,
    ...(gist.target === undefined ? {} : { target: bound(gist.target, MAX_TEXT) }),
    ...(gist.value === undefined ? {} : { value: bound(gist.value, MAX_TEXT) }),
    ...(gist.targets === undefined ? {} : { targets: gist.targets.slice(0, 20).map((each) => bound(each, MAX_TEXT)) }),
  };
}
