import type { TFunction } from 'i18next';
import type { ChatEntry } from '../../../shared/transcript';
import { cut, emphasize, MARK, quoted, type Emphasis } from './emphasis';
import { errorSentence } from '../failure';
import { isToolVerb, type ToolGist } from '../../../shared/tool-gist';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

const VALUE_CHARS = 40;
const REASON_CHARS = 140;

export function parseArguments(raw: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const UNNAMED = { window: 'tool.theWindow', element: 'tool.anElement', page: 'tool.thePage' } as const;

/** The gist of an entry saved before calls carried one: it read "Ran <name>" in either case. */
function gistOf(entry: Entry): ToolGist {
  return entry.gist !== undefined && isToolVerb(entry.gist.verb) ? entry.gist : { verb: 'run', target: entry.name, key: '' };
}

/**
 * "Clicked **Save**", "Set **Name** to “Ada”", "Looked for **“Save”**": what a glance needs, in
 * the user's words. The tool said what the call does (its gist, carried by the event); the words
 * are the window's. The target is what the call names, else the node the result names, else a
 * stand-in ("an element"). Ids, methods and codes stay inside the opened card.
 */
export function toolLabel(entry: Entry, t: TFunction, language: string): Emphasis {
  const gist = gistOf(entry);
  let target: string;
  if (gist.targets !== undefined) target = new Intl.ListFormat(language, { type: 'conjunction' }).format(gist.targets.map((label) => cut(label, VALUE_CHARS)));
  else if (gist.target !== undefined) target = gist.quoted === true ? quoted(gist.target, VALUE_CHARS) : gist.target;
  else target = entry.target ?? (gist.unnamed === undefined ? '' : t(UNNAMED[gist.unnamed]));
  const value = gist.value === undefined ? '' : quoted(gist.value, VALUE_CHARS);
  const form = entry.status === 'ok' ? 'done' : 'doing';
  const label = emphasize(t(`tool.${form}.${gist.verb}` as 'tool.done.click', { target: MARK, value }), target);
  return entry.status === 'running' ? { ...label, after: `${label.after}…` } : label;
}

/**
 * Why a call failed, in one line for the closed card: the sentence for the error code it names
 * (codes are for the opened card), else the tool's own first line.
 */
export function failureLine(entry: Entry, t: TFunction): string | undefined {
  if (entry.status !== 'failed' || entry.message === undefined) return undefined;
  const code = /\b([A-Z][A-Z_]{3,})\b/.exec(entry.message)?.[1];
  if (code !== undefined) return errorSentence(code, t);
  return cut(entry.message.split('\n')[0] ?? '', REASON_CHARS);
}

export function prettyArguments(raw: string): string {
  const parsed = parseArguments(raw);
  return parsed === undefined ? raw : JSON.stringify(parsed, null, 2);
}
