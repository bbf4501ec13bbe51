import { IFACE } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';

type ObjectRef = [string, string];

/** Action names that mean "activate this": GTK 3 "click", GTK 4 "activate"/"toggle", Gecko "press"/"check"/"jump", Qt "Press". */
export const PRESS_ACTIONS = ['click', 'press', 'activate', 'toggle', 'jump', 'open', 'select', 'check', 'uncheck'];
/** More actions than this and the list is not a widget's: only that many names are asked for one by one. */
const MAX_ACTIONS = 16;
/** A real action name: a word or a few, as toolkits spell them. Gecko's GetActions has answered ";;" for every field. */
const PLAUSIBLE = /^[\p{L}][\p{L}\p{N} _-]{0,40}$/u;

/**
 * The index of the action that presses a node, or -1. GetActions answers in one call, but
 * Gecko's comes back garbled (every name ";;"), which is not a name: then each name is
 * asked for with GetName, bounded by NActions, which Gecko answers correctly. Chromium
 * names its one action "": that one is the press.
 */
export async function pressActionIndex(client: AtspiClient, object: ObjectRef): Promise<number> {
  const [actions] = await client.call(object, IFACE.action, 'GetActions');
  let names = (Array.isArray(actions) ? (actions as unknown[]) : []).map((entry) => (Array.isArray(entry) ? String(entry[0] ?? '') : ''));
  if (names.some((name) => name !== '' && !PLAUSIBLE.test(name))) names = await namesOneByOne(client, object);
  const lower = names.map((name) => name.trim().toLowerCase());
  const index = lower.findIndex((name) => PRESS_ACTIONS.includes(name));
  if (index >= 0) return index;
  return lower.length === 1 && lower[0] === '' ? 0 : -1;
}

async function namesOneByOne(client: AtspiClient, object: ObjectRef): Promise<string[]> {
  const count = Math.min(MAX_ACTIONS, Math.max(0, Number(await client.property(object, IFACE.action, 'NActions')) || 0));
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const [name] = await client.call(object, IFACE.action, 'GetName', 'i', [index]);
    names.push(typeof name === 'string' && PLAUSIBLE.test(name) ? name : '');
  }
  return names;
}
