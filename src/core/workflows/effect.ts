import type { UiActionResult } from '../../shared/ui-action';
import type { UiNode } from '../../shared/ui-node';
import { selectionOf, showsChoice } from '../actions/choose-option';
import { windowLocator } from './locator';
import type { Effect } from './schema';
import { describeWindow, windowFits } from './window';

const STATE_KEYS = ['checked', 'selected', 'expanded'] as const;

function windowKey(window: UiNode): string {
  return `${window.role}\u0000${window.name}`;
}

/** What a recording saw around one action, beyond the engine's result. */
export interface Observed {
  result: UiActionResult;
  windowsBefore: readonly UiNode[];
  windowsAfter: readonly UiNode[];
  exited: boolean;
}

/**
 * The effect a step is held to on replay, from the verified result of its recording: a window
 * that opened or closed, the app exiting, the target gone, its value (through `template`, so a
 * value typed from a parameter is expected as that parameter), its states; else, if anything
 * changed, just `changed`. Undefined when nothing was seen to change (a scroll).
 */
export function recordEffect(observed: Observed, template: (value: string | number) => string | number = (value) => value): Effect | undefined {
  const { result } = observed;
  if (observed.exited) return { appExited: true };
  const effect: Effect = {};
  const before = new Set(observed.windowsBefore.map(windowKey));
  const after = new Set(observed.windowsAfter.map(windowKey));
  const opened = observed.windowsAfter.find((window) => !before.has(windowKey(window)));
  const closed = observed.windowsBefore.find((window) => !after.has(windowKey(window)));
  if (opened !== undefined) effect.windowOpened = windowLocator(opened);
  if (closed !== undefined) effect.windowClosed = windowLocator(closed);
  const { nodeBefore, nodeAfter } = result;
  if (nodeBefore !== null && nodeAfter === null && result.changes.includes('the node is gone from the tree')) effect.gone = true;
  if (nodeBefore !== null && nodeAfter !== null) {
    if (nodeAfter.value !== undefined && nodeAfter.value !== nodeBefore.value && nodeAfter.states.secret !== true) effect.value = template(nodeAfter.value);
    const states: NonNullable<Effect['states']> = {};
    for (const key of STATE_KEYS)
      if (nodeAfter.states[key] !== nodeBefore.states[key] && nodeAfter.states[key] !== undefined) states[key] = nodeAfter.states[key];
    if (Object.keys(states).length > 0) effect.states = states;
  }
  // Focus moving to what was clicked is how a pointer click looks, not what it did: an accessibility press on replay does not move it.
  const changed = result.changes.some((change) => !change.startsWith('states.focused'));
  if (Object.keys(effect).length === 0 && changed) effect.changed = true;
  return Object.keys(effect).length === 0 ? undefined : effect;
}

/** What replay sees when it checks an effect. */
export interface Seen {
  /** The target as it is now; undefined when it is gone. */
  node: UiNode | undefined;
  windows: readonly UiNode[];
  alive: boolean;
  /** The engine's `changed` for the action. */
  changed: boolean;
}

/** What of the expected effect is missing, in words; undefined when all of it is there. */
export function missingEffect(expect: Effect, seen: Seen): string | undefined {
  if (expect.appExited === true) return seen.alive ? 'the app was expected to exit and is still running' : undefined;
  if (!seen.alive) return 'the app exited';
  if (expect.windowOpened !== undefined && !seen.windows.some((window) => windowFits(window, expect.windowOpened as NonNullable<Effect['windowOpened']>))) {
    return `${describeWindow(expect.windowOpened)} did not open`;
  }
  if (expect.windowClosed !== undefined && seen.windows.some((window) => windowFits(window, expect.windowClosed as NonNullable<Effect['windowClosed']>))) {
    return `${describeWindow(expect.windowClosed)} did not close`;
  }
  if (expect.gone === true) return seen.node === undefined ? undefined : 'the target was expected to go away and is still there';
  if (expect.value !== undefined || expect.states !== undefined) {
    const node = seen.node;
    if (node === undefined) return 'the target is gone, so its value and states cannot be checked';
    // A combo box without a value of its own (GTK's) shows its choice in its name or a label inside: read as a person reads it.
    const shown = node.role === 'combobox' && node.value === undefined ? selectionOf(node) : String(node.value ?? '');
    const holds = node.role === 'combobox' && node.value === undefined ? showsChoice(node, String(expect.value)) : shown === String(expect.value);
    if (expect.value !== undefined && node.states.secret !== true && !holds) {
      return `value is ${JSON.stringify(shown.slice(0, 80))}, expected ${JSON.stringify(String(expect.value).slice(0, 80))}`;
    }
    for (const [key, wanted] of Object.entries(expect.states ?? {})) {
      const actual = node.states[key as keyof UiNode['states']];
      if (wanted !== undefined && actual !== wanted) return `states.${key} is ${String(actual)}, expected ${String(wanted)}`;
    }
  }
  if (expect.changed === true && !seen.changed) return 'nothing observable changed';
  return undefined;
}
