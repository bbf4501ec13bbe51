import type { SuggestionKind } from '../../shared/suggestions';
import type { UiNode } from '../../shared/ui-node';

const FIELDS = new Set(['textfield', 'combobox', 'spinbutton', 'slider']);
const CHOICES = new Set(['checkbox', 'switch', 'radio', 'togglebutton']);
const ITEMS = new Set(['listitem', 'row', 'treeitem', 'cell']);
/** Text worth summarizing: a document, or a page's worth of text anywhere. */
const LONG_TEXT = 400;

function* walk(node: UiNode): Generator<UiNode> {
  yield node;
  for (const child of node.children ?? []) yield* walk(child);
}

/**
 * Three things to ask about this app, from what its tree shows: a form offers to fill it, a
 * document to read it, settings to change them, a long list to find something in it; every app
 * gets "what can I do here?" and "summarize this window". The strongest signals come first.
 */
export function suggestPrompts(root: UiNode): SuggestionKind[] {
  let fields = 0;
  let choices = 0;
  let items = 0;
  let text = 0;
  let document = false;
  for (const node of walk(root)) {
    if (FIELDS.has(node.role) && node.states.editable !== false && node.states.secret !== true) fields += 1;
    if (CHOICES.has(node.role)) choices += 1;
    if (ITEMS.has(node.role)) items += 1;
    if (node.role === 'document' || node.role === 'textarea') document = true;
    text += node.name.length + (typeof node.value === 'string' ? node.value.length : 0);
  }
  const found: SuggestionKind[] = [];
  if (document && text >= LONG_TEXT) found.push('readDocument');
  if (fields >= 2) found.push('fillForm');
  if (choices >= 3) found.push('changeSettings');
  if (items >= 8) found.push('findItem');
  const kinds: SuggestionKind[] = ['whatCanIDo', ...found, 'summarize'];
  return kinds.slice(0, 3);
}
