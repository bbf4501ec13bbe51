import type { ChatEntry } from '../../../shared/transcript';

/**
 * The ask "Save as workflow" offers: the last one, when it ended with an answer (not stopped,
 * not failed) and at least one tool acted and succeeded. The host has the final word: it keeps
 * only actions that were verified.
 */
export function saveableAsk(entries: readonly ChatEntry[]): string | undefined {
  let start = -1;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    if (entries[index]?.kind === 'user') {
      start = index;
      break;
    }
  }
  const question = entries[start];
  if (question?.kind !== 'user') return undefined;
  const rest = entries.slice(start + 1).filter((entry) => entry.kind !== 'notice' && entry.askId === question.askId);
  const acted = rest.some((entry) => entry.kind === 'tool' && entry.status === 'ok' && entry.changed === true);
  const answered = rest.some((entry) => entry.kind === 'assistant' && !entry.streaming && entry.interrupted !== true);
  const failed = rest.some((entry) => entry.kind === 'error');
  return acted && answered && !failed ? question.askId : undefined;
}
