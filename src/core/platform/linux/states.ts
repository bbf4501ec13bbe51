import { STATE } from '../../../../native/linux/atspi';
import type { UiStates } from '../../../shared/ui-node';

export function hasState(bits: readonly number[], state: number): boolean {
  const word = bits[state >> 5] ?? 0;
  return ((word >>> (state & 31)) & 1) === 1;
}

/**
 * Reads the two 32-bit words of AT-SPI state bits. GTK 4 never sets SHOWING or ENABLED,
 * so for it a missing bit means "unknown", not "hidden" or "disabled".
 */
export function decodeStates(bits: readonly number[], options: { gtk4: boolean; secret: boolean }): UiStates {
  const has = (state: number): boolean => hasState(bits, state);
  const states: UiStates = {
    enabled: options.gtk4 ? !has(STATE.DEFUNCT) : has(STATE.ENABLED) || has(STATE.SENSITIVE),
    focused: has(STATE.FOCUSED),
  };
  if (has(STATE.SELECTABLE) || has(STATE.SELECTED)) states.selected = has(STATE.SELECTED);
  if (has(STATE.CHECKABLE) || has(STATE.CHECKED) || has(STATE.PRESSED)) states.checked = has(STATE.CHECKED) || has(STATE.PRESSED);
  if (has(STATE.EXPANDABLE)) states.expanded = has(STATE.EXPANDED);
  if (has(STATE.EDITABLE) && !has(STATE.READ_ONLY)) states.editable = true;
  if (options.secret) states.secret = true;
  if (!options.gtk4 && !has(STATE.SHOWING)) states.visible = false;
  return states;
}
