import type { TFunction } from 'i18next';
import type { ChatEntry } from '../../../shared/transcript';
import { cut, emphasize, MARK, quoted, type Emphasis } from './emphasis';
import { errorSentence } from '../failure';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

const VALUE_CHARS = 40;
const REASON_CHARS = 140;

const ACTIONS = new Set(['click', 'set_value', 'type', 'key', 'scroll', 'drag']);
const TOOLS = new Set(['ui_find', 'ui_tree', 'ui_read', 'ui_apps', 'ui_focus_app', 'ui_fill_form', 'ui_wait_for', 'ui_close_window', 'search_docs']);

export function parseArguments(raw: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/**
 * "Clicked **Save**", "Set **Name** to “Ada”", "Looked for **“Save”**": what a glance needs, in
 * the user's words. Ids, methods and codes stay inside the opened card.
 */
export function toolLabel(entry: Entry, t: TFunction, language: string): Emphasis {
  const args = parseArguments(entry.arguments) ?? {};
  const action = text(args['action']);
  const key = entry.name === 'ui_action' ? (action !== undefined && ACTIONS.has(action) ? action : 'act') : TOOLS.has(entry.name) ? entry.name : 'other';
  let target: string;
  let value = '';
  switch (key) {
    case 'key':
      target = [...(Array.isArray(args['modifiers']) ? args['modifiers'].filter((each) => typeof each === 'string') : []), text(args['key']) ?? ''].join('+');
      break;
    case 'type':
    case 'set_value':
      value = quoted(text(args['text']) ?? text(args['value']) ?? '', VALUE_CHARS);
      target = entry.target ?? t('tool.anElement');
      break;
    case 'scroll':
      target = entry.target ?? t('tool.thePage');
      break;
    case 'ui_find':
    case 'ui_wait_for': {
      const named = text(args['name']) ?? text(args['text']) ?? text(args['description']);
      target = named === undefined ? (text(args['role']) ?? t('tool.anElement')) : quoted(named, VALUE_CHARS);
      break;
    }
    case 'ui_tree':
      target = text(args['app']) ?? t('tool.theWindow');
      break;
    case 'ui_focus_app':
      target = text(args['name']) ?? entry.target ?? '';
      break;
    case 'ui_fill_form': {
      const labels = Array.isArray(args['fields'])
        ? args['fields'].map((field) => text((field as { label?: unknown } | null)?.label)).filter((label) => label !== undefined)
        : [];
      target = new Intl.ListFormat(language, { type: 'conjunction' }).format(labels.map((label) => cut(label, VALUE_CHARS)));
      break;
    }
    case 'search_docs':
      target = quoted(text(args['query']) ?? '', VALUE_CHARS);
      break;
    case 'other':
      target = entry.name;
      break;
    default:
      target = entry.target ?? t('tool.anElement');
  }
  const form = entry.status === 'ok' ? 'done' : 'doing';
  const label = emphasize(t(`tool.${form}.${key}` as 'tool.done.click', { target: MARK, value }), target);
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
