import type { AgentToolCall, AgentUsage } from '../../shared/agent-events';
import { abortable } from './abortable';
import { STOPPED_MARK, INTERRUPTED_MARK } from './agent-options';
import { visionMode, type AgentCore, type AskState } from './agent-core';
import type { ProviderMessage } from './provider/types';
import { rejectsImages } from './provider/vision';
import { hasImages } from './tool-images';

/** What one model turn produced. */
export interface Turn {
  text: string;
  toolCalls: AgentToolCall[];
  finishReason: string;
  usage?: AgentUsage;
}

/**
 * One model call. In `auto`, a request refused for its images is made again at once without
 * them (each named instead), and the conversation stays text-only from then on; the user is
 * told once, under the call whose images were refused. Nothing else of the conversation changes.
 */
export async function modelTurn(
  core: AgentCore,
  ask: AskState,
  iteration: number,
  request: () => ProviderMessage[],
  imagesFrom: string,
): Promise<Turn | 'stopped'> {
  const messages = request();
  core.emit({ type: 'ai_request', askId: ask.askId, iteration, messageCount: messages.length });
  try {
    return await streamTurn(core, ask, messages);
  } catch (error) {
    const auto = visionMode(core) === 'auto';
    if (!auto || core.conversation.textOnly || !messages.some(hasImages) || !rejectsImages(error)) throw error;
    core.conversation.refuseImages();
    core.emit({
      type: 'tool_log',
      askId: ask.askId,
      callId: imagesFrom,
      text: 'The model does not take images, so images from tools are only named to it for the rest of this conversation.',
    });
    return modelTurn(core, ask, iteration, request, imagesFrom);
  }
}

/**
 * One streamed model turn. Tool calls of a turn that did not finish are dropped, never run:
 * the model had not finished deciding. Its text is kept, marked, so the user still sees it.
 */
async function streamTurn(core: AgentCore, ask: AskState, messages: ProviderMessage[]): Promise<Turn | 'stopped'> {
  const { signal, askId } = ask;
  const turn: Turn = { text: '', toolCalls: [], finishReason: '' };
  const iterator = core.options.provider.stream({ messages, tools: core.options.tools.definitions(ask.language) }, signal)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await abortable(iterator.next(), signal);
      if (next.done === true) break;
      const part = next.value;
      if (part.type === 'text') {
        turn.text += part.delta;
        core.emit({ type: 'ai_chunk', askId, delta: part.delta });
      } else if (part.type === 'tool_call') {
        turn.toolCalls.push({ id: part.id, name: part.name, arguments: part.arguments });
      } else {
        turn.finishReason = part.reason;
        if (part.usage !== undefined) turn.usage = part.usage;
      }
    }
  } catch (error) {
    void iterator.return?.()?.catch(() => undefined);
    if (signal.aborted) {
      core.conversation.keepPartial(turn.text, STOPPED_MARK);
      return 'stopped';
    }
    core.conversation.keepPartial(turn.text, INTERRUPTED_MARK);
    throw error;
  }
  // A provider ends quietly on abort (cancellation is not an error), so check here too.
  if (signal.aborted) {
    core.conversation.keepPartial(turn.text, STOPPED_MARK);
    return 'stopped';
  }
  return turn;
}
