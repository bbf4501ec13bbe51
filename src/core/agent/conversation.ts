import type { AgentToolCall } from '../../shared/agent-events';
import type { ProviderMessage } from './provider/types';
import { dropImages, IMAGES_GONE, IMAGES_REFUSED } from './tool-images';

const NOT_RUN = 'not run: the user stopped the task before this tool ran';

/**
 * The messages the model reads, kept between asks, and whether this model takes images.
 *
 * Invariants the provider relies on: every assistant message with tool_calls is followed by
 * exactly one tool message per call id (a stop fills the ones that did not run), and a failed
 * or stopped turn never leaves half a tool round behind.
 */
export class Conversation {
  readonly messages: ProviderMessage[] = [];
  /** Set when the provider refused images (`auto`): the rest of the conversation names them only. */
  textOnly = false;

  /**
   * The conversation so far, without the system prompt and context messages (they are rebuilt
   * per ask). Images are stubs in it, as they are between asks: the snapshot travels to the app
   * and is saved, and megabytes of base64 have no place there.
   */
  snapshot(): ProviderMessage[] {
    const messages = structuredClone(this.messages);
    dropImages(messages, IMAGES_GONE);
    return messages;
  }

  /** Replaces the messages with saved ones; images in them become stubs, as they would have after their ask. */
  restore(messages: readonly ProviderMessage[]): void {
    this.replace(structuredClone(messages));
    dropImages(this.messages, IMAGES_GONE);
  }

  replace(messages: readonly ProviderMessage[]): void {
    this.messages.splice(0, this.messages.length, ...messages);
  }

  clear(): void {
    this.messages.length = 0;
    this.textOnly = false;
  }

  push(...messages: ProviderMessage[]): void {
    this.messages.push(...messages);
  }

  /**
   * Images are seen in the ask that got them. Later asks read a stub: sending megabytes again
   * on every call costs more than calling the tool again, and the running conversation stays
   * the same as a saved and restored one (and its cache key).
   */
  endAsk(): void {
    dropImages(this.messages, IMAGES_GONE);
  }

  /** The provider refused images: from now on they are named only. */
  refuseImages(): void {
    this.textOnly = true;
    dropImages(this.messages, IMAGES_REFUSED);
  }

  /** Closes a tool round cut by a stop, so every tool_call id still gets its one tool message. */
  closeRound(notRun: readonly AgentToolCall[]): void {
    for (const call of notRun) this.messages.push({ role: 'tool', tool_call_id: call.id, content: NOT_RUN });
  }

  /** The text of a turn cut part-way, marked, so the user still sees it. */
  keepPartial(text: string, mark: string): void {
    if (text !== '') this.messages.push({ role: 'assistant', content: `${text}\n${mark}` });
  }
}
