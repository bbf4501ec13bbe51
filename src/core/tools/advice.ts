import type { SerializedError } from '../../shared/errors';
import type { UiActionResult } from '../../shared/ui-action';
import { formatNode } from '../ui/serialize';

/**
 * The commands advice names. Each program speaks its own: a model behind the MCP server or the
 * agent calls tools (`ui_tree`), a person at the CLI runs commands (`deskpilot tree`), and advice
 * naming the other program's commands is advice nobody can follow.
 */
export interface Vocabulary {
  /** Reads the whole tree. */
  tree: string;
  /** Reads the tree under one node. */
  subtree: string;
  find: string;
  apps: string;
  /** An action by its name, as the program runs one. */
  act: (action: string) => string;
}

/** For a model: the MCP server's and the agent's tools. */
export const TOOL_WORDS: Vocabulary = {
  tree: 'ui_tree',
  subtree: 'ui_tree (rootId)',
  find: 'ui_find',
  apps: 'ui_apps',
  act: (action) => `ui_action '${action}'`,
};

/** For a person at the terminal: `deskpilot` commands. */
export const CLI_WORDS: Vocabulary = {
  tree: "'deskpilot tree'",
  subtree: "'deskpilot tree --root ID'",
  find: "'deskpilot find'",
  apps: "'deskpilot apps'",
  act: (action) => `'deskpilot act' with "action":"${action}"`,
};

/** The next step, per error code, where the message alone does not say it. */
function nextStep(error: SerializedError, words: Vocabulary): string | undefined {
  switch (error.code) {
    case 'VALIDATION':
      return 'Fix the arguments named above and call again.';
    case 'PROCESS_EXITED':
      return `The app has exited or the pid is wrong; run ${words.apps} for the running apps and their pids.`;
    case 'PERMISSION_DENIED':
      return 'Do not retry this target.';
    case 'UI_NOT_AVAILABLE':
      // A desktop that is there but not found (a bare MCP client environment) is a setup problem, not a missing ability.
      return error.data?.['setup'] === true ? 'Fix the setup as said above, then call again.' : 'This machine cannot do this; do not retry it.';
    case 'TIMEOUT':
      // A wait whose condition never held is not an app that failed to answer.
      return error.data?.['reason'] === 'condition-not-met'
        ? 'The app answered every time; what was waited for did not happen. Compare the condition with what was last seen, or wait longer.'
        : 'The app did not answer in time (busy or frozen); wait a moment and try again.';
    case 'NOT_SETTABLE':
      return `Use ${words.act('type')} on the same id instead.`;
    default:
      return undefined;
  }
}

/** An error as a model or a person reads it: `CODE: message`, then the next step in the reader's own commands. */
export function errorText(error: SerializedError, words: Vocabulary = TOOL_WORDS): string {
  const hint = nextStep(error, words);
  if (hint === undefined || error.message.includes(hint)) return `${error.code}: ${error.message}`;
  return `${error.code}: ${error.message}${/[.!?]$/.test(error.message) ? '' : '.'} ${hint}`;
}

/** One line on what an action did, as the CLI prints it and a model reads it; the full result is the data. */
export function summarizeAction(request: { action: string }, result: UiActionResult, words: Vocabulary = TOOL_WORDS): string {
  if (!result.success) return result.error === undefined ? `${request.action} failed` : `${request.action} failed: ${errorText(result.error, words)}`;
  // The detailed route (via) and `interrupted` stay in the data: the one line names the side only.
  const via = `${request.action} ran via ${result.method ?? 'nothing'}${result.driver === undefined ? '' : ` (${result.driver})`}`;
  const after = result.nodeAfter === null ? '' : `\nnow: ${formatNode(result.nodeAfter)}`;
  if (result.changed) return `${via}; changed: ${result.changes.join('; ')}${after}`;
  if (request.action === 'scroll') {
    return `${via}; changed: false, which is normal for scroll: the scrolled node itself may not change. Run ${words.tree} or ${words.find} to see what is showing now.${after}`;
  }
  const seen = result.changes.length === 0 ? '' : ` (${result.changes.join('; ')})`;
  return `${via}, but changed: false${seen}: nothing observable changed (a soft failure). Do not assume it worked: read the node again with ${words.subtree} or ${words.find}, then try another way (set_value instead of type, a different node, a key).${after}`;
}
