import { IFACE } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';

type ObjectRef = [string, string];

/**
 * Action names that mean "activate this": GTK 3 "click", GTK 4 "activate"/"toggle", Gecko
 * "press"/"check"/"jump", Qt "Press", Chromium "press"/"check"/"uncheck"/"open"/"doDefault"/
 * "clickAncestor" (its default-action verbs; "showContextMenu", its second action, is not one).
 */
export const PRESS_ACTIONS = [
  'click',
  'press',
  'activate',
  'toggle',
  'jump',
  'open',
  'select',
  'check',
  'uncheck',
  'dodefault',
  'clickancestor',
  'click-ancestor',
];
/** More actions than this and the list is not a widget's: only that many names are asked for one by one. */
const MAX_ACTIONS = 16;
/** A real action name: a word or a few, as toolkits spell them. Gecko's GetActions has answered ";;" for every field. */
const PLAUSIBLE = /^[\p{L}][\p{L}\p{N} _-]{0,40}$/u;

const pressIndex = (names: string[]): number => names.findIndex((name) => PRESS_ACTIONS.includes(name.trim().toLowerCase()));

/**
 * The index of the action that presses a node, or -1. GetActions answers in one call, and
 * GTK's and Qt's names are good there. Two bridges answer it badly: Gecko garbles every name
 * (";;"), and Chromium leaves every name blank ("" for "check" and "showContextMenu"), while
 * both answer GetName correctly. So when the list has no press and a blank or garbled name,
 * the names are asked one by one (bounded by NActions) until a press turns up, as pyatspi
 * does. A lone action that stays unnamed even then is the press (older Chromium).
 */
export async function pressActionIndex(client: AtspiClient, object: ObjectRef): Promise<number> {
  const [actions] = await client.call(object, IFACE.action, 'GetActions');
  const names = (Array.isArray(actions) ? (actions as unknown[]) : []).map((entry) => (Array.isArray(entry) ? String(entry[0] ?? '') : ''));
  const listed = pressIndex(names);
  if (listed >= 0 && PLAUSIBLE.test(names[listed] as string)) return listed;
  if (!names.some((name) => !PLAUSIBLE.test(name))) return -1;
  const asked = await namesOneByOne(client, object);
  const index = pressIndex(asked);
  if (index >= 0) return index;
  return asked.length === 1 && asked[0] === '' ? 0 : -1;
}

/** GetName for each action in turn, stopping at the first press: names that are not plausible count as blank. */
async function namesOneByOne(client: AtspiClient, object: ObjectRef): Promise<string[]> {
  const count = Math.min(MAX_ACTIONS, Math.max(0, Number(await client.property(object, IFACE.action, 'NActions')) || 0));
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const [name] = await client.call(object, IFACE.action, 'GetName', 'i', [index]);
    names.push(typeof name === 'string' && PLAUSIBLE.test(name) ? name : '');
    if (pressIndex(names) >= 0) break;
  }
  return names;
}
