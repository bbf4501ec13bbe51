import type { ProviderMessage } from './provider/types';
import { serializeError } from '../../shared/errors';
import { OwnAppError } from '../tools/target';
import { abortable } from './abortable';
import { finish, type AgentCore, type AskState } from './agent-core';
import type { AgentAnswer, AskTarget } from './agent-options';
import { compactHistory } from './compaction';
import { buildContextMessage } from './context-message';
import { ActionLedger, unconfirmedNote, unconfirmedSummary } from './end-state';
import { answerLanguage, DEFAULT_LANGUAGES } from './language';
import { conversationKey, isCacheableToolUse, type CacheScope, type CachedAnswer } from './response-cache';
import { defaultSystemPrompt } from './system-prompt';
import { toolLoop, type Outcome } from './tool-loop';

export interface PendingAsk {
  askId: string;
  text: string;
  target: AskTarget;
}

/**
 * One ask from start to `done`: observe the app, answer from the cache when the same plain
 * question met the same UI state, else compact the history and run the tool loop, then check
 * the end state of whatever it acted on. `signal` undefined: a stop dropped it from the queue.
 */
export async function runAsk(core: AgentCore, pending: PendingAsk, signal: AbortSignal | undefined): Promise<AgentAnswer> {
  const { askId } = pending;
  if (signal === undefined) return finish(core, askId, '', 'stopped');
  const { options, conversation } = core;
  try {
    if (core.ownPids.includes(pending.target.pid)) throw new OwnAppError(pending.target.pid);
    const ask: AskState = { askId, target: pending.target, signal, language: answerLanguage(pending.text, options.languages?.() ?? DEFAULT_LANGUAGES) };
    if (options.externalTools !== undefined) options.tools.setExternalTools(await abortable(options.externalTools(), signal));
    const context = await abortable(buildContext(core, pending.target), signal);
    // The conversation before this ask is part of the key: "and now?" means something else after another turn.
    // So is the model: after a switch, another model's answer is not this one's.
    const scope = await cacheScope(core, ask);
    const cached = scope === undefined ? undefined : core.cache?.entry(pending.text, context, scope);
    if (cached !== undefined && scope !== undefined) return answerFromCache(core, ask, pending.text, context, scope, cached);
    await compact(core, signal);
    const systemPrompt = (options.systemPrompt ?? defaultSystemPrompt)(options.tools, ask.language);
    const before = [...conversation.messages];
    conversation.push({ role: 'user', content: pending.text });
    // The context sits just before the question and is not kept: the next ask observes afresh.
    const request = (): ProviderMessage[] => [
      { role: 'system', content: systemPrompt },
      ...before,
      { role: 'user', content: context },
      ...conversation.messages.slice(before.length),
    ];
    const toolsUsed = new Set<string>();
    const ledger = new ActionLedger(ask.language);
    let outcome: Outcome;
    try {
      outcome = await toolLoop(core, ask, request, toolsUsed, ledger, { userText: pending.text, readContent: false });
    } finally {
      conversation.endAsk();
    }
    if (outcome.reason === 'stopped') return finish(core, askId, '', 'stopped');
    if (ledger.acted) return await finishChecked(core, ask, outcome, ledger);
    // Only plain answers: never a stop, an iteration limit, or anything that acted.
    if (
      scope !== undefined &&
      outcome.reason === 'answered' &&
      outcome.text !== '' &&
      isCacheableToolUse([...toolsUsed].map((name) => options.tools.tool(name)))
    ) {
      core.cache?.set(pending.text, context, outcome.text, scope);
      rememberRepeat(core, pending.text, context, outcome.text, scope);
    }
    return finish(core, askId, outcome.text, outcome.reason);
  } catch (error) {
    // After a stop, whatever was thrown is the stop itself (or noise from work being cut off).
    if (signal.aborted) return finish(core, askId, '', 'stopped');
    core.emit({ type: 'error', askId, error: serializeError(error) });
    throw error;
  }
}

function buildContext(core: AgentCore, target: AskTarget): Promise<string> {
  if (core.options.buildContext !== undefined) return core.options.buildContext(target);
  return buildContextMessage(core.options.engine, core.options.platform, target.pid, { ownPids: core.ownPids });
}

/**
 * The cache scope of an ask: the conversation so far, the model that would answer and the
 * answer's language. Undefined (no caching this ask) when the model cannot be named: the request will say why.
 */
async function cacheScope(core: AgentCore, ask: AskState): Promise<Required<CacheScope> | undefined> {
  if (core.cache === undefined) return undefined;
  const conversation = conversationKey(core.conversation.messages);
  try {
    const model = await abortable(core.options.provider.identity?.() ?? Promise.resolve(''), ask.signal);
    // An answer in another language is not this one's either (the setting may have changed).
    return { conversation, model, language: ask.language };
  } catch (error) {
    if (ask.signal.aborted) throw error;
    return undefined;
  }
}

/** A repeat of a plain question on the same UI state: the events of a plain answer, without the model. */
function answerFromCache(
  core: AgentCore,
  ask: AskState,
  question: string,
  context: string,
  scope: Required<CacheScope>,
  { text, storedAt }: CachedAnswer,
): AgentAnswer {
  core.emit({ type: 'ai_chunk', askId: ask.askId, delta: text });
  core.emit({ type: 'ai_response', askId: ask.askId, text, toolCalls: [], finishReason: 'stop' });
  core.conversation.push({ role: 'user', content: question }, { role: 'assistant', content: text });
  rememberRepeat(core, question, context, text, scope, storedAt);
  return finish(core, ask.askId, text, 'answered', { cached: true });
}

/**
 * Asking the same thing right after its answer gets the same answer, so the answer is also
 * kept under the conversation as it is now, with this exchange in it.
 */
function rememberRepeat(core: AgentCore, question: string, context: string, text: string, scope: Required<CacheScope>, storedAt = core.clock.now()): void {
  const conversation = conversationKey(core.conversation.messages);
  core.cache?.set(question, context, text, { conversation, model: scope.model, language: scope.language }, storedAt);
}

/** Summarizes old turns; on any failure but a stop the history stays as it was and the ask goes on. */
async function compact(core: AgentCore, signal: AbortSignal): Promise<void> {
  if (core.options.compaction === false) return;
  try {
    const compacted = await abortable(compactHistory(core.options.provider, [...core.conversation.messages], signal, core.options.compaction), signal);
    if (compacted !== undefined) core.conversation.replace(compacted);
  } catch (error) {
    if (signal.aborted) throw error;
  }
}

/**
 * Before saying done after acting: look at the app again and compare it with what the actions
 * reported. When it does not match, or cannot be seen, the answer says so (streamed as one more
 * chunk, in `done` and in `check.notes`). The history's last assistant message gets only a
 * count of failed checks: the notes quote app text, and the model would later read it as its
 * own words. A stop during the look is a stop.
 */
async function finishChecked(core: AgentCore, ask: AskState, outcome: Outcome, ledger: ActionLedger): Promise<AgentAnswer> {
  const { signal } = ask;
  const { check, problems } = await abortable(ledger.check(core.options.engine, core.options.platform, signal), signal);
  signal.throwIfAborted();
  let text = outcome.text;
  if (!check.confirmed) {
    const separator = text === '' ? '' : '\n\n';
    const addition = `${separator}${unconfirmedNote(problems, ask.language)}`;
    const last = core.conversation.messages.at(-1);
    if (last?.role === 'assistant') last.content = `${text}${separator}${unconfirmedSummary(problems, ask.language)}`;
    text += addition;
    core.emit({ type: 'ai_chunk', askId: ask.askId, delta: addition });
  }
  return finish(core, ask.askId, text, outcome.reason, { check });
}
