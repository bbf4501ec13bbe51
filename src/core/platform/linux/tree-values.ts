/**
 * A node's value (text or number), extents, states, role and actions as the tree holds them:
 * read only where the node's role and interfaces say there is something to read.
 */
import { COORD_SCREEN, IFACE, OFFSCREEN_X, ROLE, STATE, type ObjectRef } from '../../../../native/linux/atspi';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import type { Bounds } from '../../../shared/ui-node';
import type { BoundsMode } from '../types';
import type { AtspiClient } from './client';
import type { Bridge } from './bridges';
import { isAppGone } from './read-crash';
import { CONTENT_TEXT_ROLES, NUMERIC_VALUE_ROLES, TEXT_VALUE_ROLES, normalizeRole } from './roles';
import { decodeStates, hasState } from './states';
import { unlessFrozen, type Item } from './tree-items';

/** Text read into the tree per field; ui_read gives the rest. */
export const MAX_TREE_TEXT = 4000;

export interface ValueRead {
  value?: string | number;
  truncated?: boolean;
}

export interface Detail extends ValueRead {
  bounds?: Bounds;
}

export function isSecret(item: { role: number }): boolean {
  return item.role === ROLE.PASSWORD_TEXT;
}

/**
 * Reads a text field's content. GTK (3 and 4) and Chromium clamp a large end, so one call with
 * the limit does (GTK 4 answers "" to end = -1); Gecko answers "" to an end past the text but
 * takes -1; Qt and LibreOffice answer "" to an end past the text, so they, and a toolkit not
 * known here, are asked for the length first. A toolkit that rejects the one call is asked too.
 */
export async function readText(client: AtspiClient, self: ObjectRef, limit = MAX_TREE_TEXT, bridge?: Bridge): Promise<string> {
  const kind = bridge?.kind;
  try {
    if (kind === 'gecko') return await wholeText(client, self, limit);
    if (kind !== 'qt' && kind !== 'libreoffice' && kind !== 'unknown') {
      const [text] = await client.call(self, IFACE.text, 'GetText', 'ii', [0, limit]);
      return String(text);
    }
  } catch (error) {
    if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
  }
  const count = Number(await client.property(self, IFACE.text, 'CharacterCount'));
  if (!(count > 0)) return '';
  const [text] = await client.call(self, IFACE.text, 'GetText', 'ii', [0, Math.min(count, limit)]);
  return String(text);
}

/**
 * A text in one call, GetText(0, -1), cut to `limit` characters (code points, so no surrogate
 * pair is split): for bridges whose whole text is known to answer so (Gecko; LibreOffice's sheet
 * cells, sampled-reads.ts), where asking its length first would cost a second call.
 */
export async function wholeText(client: AtspiClient, self: ObjectRef, limit: number): Promise<string> {
  const [text] = await client.call(self, IFACE.text, 'GetText', 'ii', [0, -1]);
  const whole = String(text);
  return whole.length <= limit ? whole : [...whole].slice(0, limit).join('');
}

/** Tries of an element's extents while the app answers (-1, -1, -1, -1), as Firefox does to the first query after it starts. */
export const EXTENTS_TRIES = 3;
const EXTENTS_RETRY_MS = 40;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A node's place on screen, asked up to `tries` times while it is (-1, -1, -1, -1); undefined when it stays so, or is off screen. */
export async function readExtents(
  client: AtspiClient,
  self: ObjectRef,
  tries = EXTENTS_TRIES,
  pause: (ms: number) => Promise<void> = sleep,
): Promise<Bounds | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const [extents] = await client.call(self, IFACE.component, 'GetExtents', 'u', [COORD_SCREEN]);
    const [x, y, width, height] = extents as number[];
    if (x === undefined || y === undefined || width === undefined || height === undefined || x === OFFSCREEN_X) return undefined;
    // (-1, -1, -1, -1) means "not laid out yet", not a place: asked again, and unknown if it stays so.
    if (!(x === -1 && y === -1 && width === -1 && height === -1)) return { x, y, width, height };
    if (attempt >= tries) return undefined;
    await pause(EXTENTS_RETRY_MS);
  }
}

/** Nodes synthetic input may target, and windows; other bounds are read when an action needs them. */
function wantsBounds(item: Item, mode: BoundsMode): boolean {
  if (mode === 'none' || !item.interfaces.includes(IFACE.component)) return false;
  if (mode === 'all') return true;
  const role = normalizeRole(item.role);
  return capabilities(item).length > 0 || role === 'window' || role === 'dialog' || role === 'list' || role === 'listitem';
}

/** A node's raw role and interfaces: all that decides which value it has. */
interface ValueKind {
  role: number;
  interfaces: string[];
  /** The node's own name, where known: a named cell or link already says its text (GTK cells, Gecko links). */
  name?: string;
}

function hasTextValue(item: ValueKind): boolean {
  return !isSecret(item) && TEXT_VALUE_ROLES.has(item.role) && item.interfaces.includes(IFACE.text) && item.role !== ROLE.SPIN_BUTTON;
}

/**
 * Nodes whose text is document or page content (a paragraph, a heading, a cell, a link): the
 * Text interface holds it where the name does not (Writer paragraphs, Firefox and Chromium
 * pages), so it is read as the node's value. Embedded children appear in it as U+FFFC.
 */
function hasContentText(item: ValueKind): boolean {
  // LibreOffice names a cell by its address ("A1"): its content is in Text alone.
  const named = (item.name ?? '').trim() !== '' && !(item.role === ROLE.TABLE_CELL && CELL_ADDRESS.test((item.name ?? '').trim()));
  return !named && CONTENT_TEXT_ROLES.has(item.role) && item.interfaces.includes(IFACE.text) && !TEXT_VALUE_ROLES.has(item.role);
}

const CELL_ADDRESS = /^\$?[A-Z]{1,3}\$?[0-9]{1,7}$/;

/** The object-replacement character that stands for each embedded child in a parent's text. */
const EMBEDDED_OBJECT = /\uFFFC/g;

function hasNumericValue(item: ValueKind): boolean {
  return NUMERIC_VALUE_ROLES.has(item.role) && item.interfaces.includes(IFACE.value);
}

export function hasValue(item: ValueKind): boolean {
  return hasTextValue(item) || hasNumericValue(item) || hasContentText(item);
}

/**
 * A text or numeric widget's value as the tree holds it (text cut at MAX_TREE_TEXT and marked); {} for other nodes.
 * `known`: its text as already read (readText's answer for MAX_TREE_TEXT + 1), so it is not asked again.
 */
export async function readValue(client: AtspiClient, self: ObjectRef, kind: ValueKind, bridge?: Bridge, known?: string): Promise<ValueRead> {
  if (hasTextValue(kind)) {
    // One character more than is kept says whether the text goes on.
    const text = known ?? (await readText(client, self, MAX_TREE_TEXT + 1, bridge));
    return text.length > MAX_TREE_TEXT ? { value: text.slice(0, MAX_TREE_TEXT), truncated: true } : { value: text };
  }
  if (hasContentText(kind)) {
    const text = (known ?? (await readText(client, self, MAX_TREE_TEXT + 1, bridge))).replace(EMBEDDED_OBJECT, '').trim();
    if (text === '') return {};
    return text.length > MAX_TREE_TEXT ? { value: text.slice(0, MAX_TREE_TEXT), truncated: true } : { value: text };
  }
  if (hasNumericValue(kind)) return { value: Number(await client.property(self, IFACE.value, 'CurrentValue')) };
  return {};
}

export function needsDetail(item: Item, bounds: BoundsMode): boolean {
  return hasValue(item) || wantsBounds(item, bounds);
}

export async function readDetail(client: AtspiClient, item: Item, bounds: BoundsMode, bridge: Bridge): Promise<Detail> {
  const detail: Detail = {};
  const jobs: Promise<unknown>[] = [];
  if (hasValue(item)) jobs.push(readValue(client, item.self, item, bridge, item.text).then((read) => Object.assign(detail, read)));
  if (wantsBounds(item, bounds)) {
    jobs.push(readExtents(client, item.self).then((extents) => extents !== undefined && (detail.bounds = extents)));
  }
  // A node that vanished mid-fetch keeps what the cache said about it.
  await Promise.all(jobs.map((job) => job.catch(unlessFrozen(undefined))));
  return detail;
}

/** Toggles report CHECKED only while checked; an unchecked one must still say so. */
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'togglebutton', 'switch']);

/** A node's raw role and state bits: all that decides its states and role. */
type StateKind = Pick<Item, 'role' | 'states'>;

export function statesOf(item: StateKind, gtk4: boolean): ReturnType<typeof decodeStates> {
  const states = decodeStates(item.states, { gtk4, secret: isSecret(item) });
  if (states.checked === undefined && (CHECKABLE_ROLES.has(roleOf(item)) || item.role === ROLE.CHECK_MENU_ITEM || item.role === ROLE.RADIO_MENU_ITEM))
    states.checked = false;
  return states;
}

/** GTK 4 gives single-line entries the TEXT role that multi-line views also have. */
export function roleOf(item: StateKind): ReturnType<typeof normalizeRole> {
  return roleNeedsStates(item.role) && hasState(item.states, STATE.SINGLE_LINE) ? 'textfield' : normalizeRole(item.role);
}

/** Whether roleOf needs a node's states to name its role: only a text area's (single-line, it is a textfield). */
export function roleNeedsStates(role: number): boolean {
  return normalizeRole(role) === 'textarea';
}

/** One node's states, decoded as the tree decodes them (one GetState call). */
export async function readStates(client: AtspiClient, self: ObjectRef, role: number, gtk4: boolean): Promise<ReturnType<typeof decodeStates>> {
  const [states] = await client.call(self, IFACE.accessible, 'GetState');
  return statesOf({ role, states: states as number[] }, gtk4);
}

/** What a model can do with a node, from its interfaces: no per-node action-name calls. */
export function capabilities(item: Item): string[] {
  const actions: string[] = [];
  if (item.interfaces.includes(IFACE.action)) actions.push('press');
  if (item.interfaces.includes(IFACE.editableText) || item.interfaces.includes(IFACE.value)) actions.push('set_value');
  if (hasState(item.states, STATE.FOCUSABLE)) actions.push('focus');
  return actions;
}
