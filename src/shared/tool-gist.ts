/**
 * A tool call in people's words, as the tool itself describes it (core/tools/gist.ts): the window
 * says it as a sentence in the user's language, the CLI prints its short key. It travels in the
 * agent's `tool_call` event, so neither has to know a tool by its name.
 */

/** The verbs the catalogs say (`tool.doing.<verb>`, `tool.done.<verb>`); `run` is any tool that names none. */
export const TOOL_VERBS = [
  'click',
  'set_value',
  'type',
  'key',
  'scroll',
  'drag',
  'act',
  'find',
  'look',
  'read',
  'capture',
  'list_apps',
  'switch_app',
  'fill',
  'wait',
  'close_window',
  'search_help',
  'run',
] as const;

export type ToolVerb = (typeof TOOL_VERBS)[number];

/** What the sentence says when neither the call nor its result names what it was about. */
export type Unnamed = 'window' | 'element' | 'page';

export interface ToolGist {
  verb: ToolVerb;
  /** What the call is about, from its arguments, in the app's words: a name, an app, keys. */
  target?: string;
  /** Several targets (a form's fields), listed the way the reader's language lists things. */
  targets?: string[];
  /** The target is text looked for, shown in quotes. */
  quoted?: boolean;
  /** Said when no target is known: then the result's node names it, else this. */
  unnamed?: Unnamed;
  /** The text the call puts into the app (type, set_value), shown in quotes. */
  value?: string;
  /** The call in one short line for a terminal: `click kqxza`, `role="checkbox" name="Enable"`. */
  key: string;
}

export function isToolVerb(value: unknown): value is ToolVerb {
  return typeof value === 'string' && (TOOL_VERBS as readonly string[]).includes(value);
}
