import type { Language } from '../../shared/i18n/i18n';
import type { ToolRegistry } from './tool-registry/registry';
import { agentText } from './text/agent-text';

/**
 * The default system prompt, in the language the answer should be in. The data-not-instructions
 * rule is stated here as well as in the context message, because the system role is the one
 * models weigh most.
 */
export function defaultSystemPrompt(tools: ToolRegistry, language: Language = 'en'): string {
  const t = agentText(language);
  const snippets = tools.promptSnippets(language);
  return [
    t('system.identity'),
    t('system.context'),
    t('system.dataNotInstructions'),
    t('system.toolResults'),
    t('system.truncated'),
    t('system.useTools'),
    t('system.brief'),
    t('system.answerIn'),
    ...(snippets === '' ? [] : [t('system.toolNotes'), snippets]),
  ].join('\n');
}
