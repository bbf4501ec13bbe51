import type { TFunction } from 'i18next';
import type { ChatEntry } from '../../../shared/transcript';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

export function parseArguments(raw: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/**
 * "click · Save button · accessibility · changed": what a glance needs; the rest is behind the
 * toggle. Tool and action names stay as the model wrote them (they are what the log shows).
 */
export function toolSummary(entry: Entry, t: TFunction): string[] {
  const args = parseArguments(entry.arguments) ?? {};
  // The built-ins share the `ui_` prefix, which tells a glance nothing.
  const action = entry.name === 'ui_action' ? (text(args['action']) ?? 'act') : entry.name.replace(/^ui_/, '').replaceAll('_', ' ');
  const fields = Array.isArray(args['fields']) ? t('tool.fields', { count: args['fields'].length }) : undefined;
  const target =
    entry.target ??
    text(args['name']) ??
    text(args['text']) ??
    text(args['app']) ??
    text(args['id']) ??
    text(args['rootId']) ??
    text(args['query']) ??
    text(args['role']) ??
    text(args['pid']) ??
    fields;
  const parts = [action];
  if (target !== undefined) parts.push(target);
  if (entry.method !== undefined) parts.push(entry.method === 'accessibility' || entry.method === 'input' ? t(`tool.method.${entry.method}`) : entry.method);
  if (entry.changed !== undefined) parts.push(entry.changed ? t('tool.changed') : t('tool.noChange'));
  return parts;
}

export function prettyArguments(raw: string): string {
  const parsed = parseArguments(raw);
  return parsed === undefined ? raw : JSON.stringify(parsed, null, 2);
}
