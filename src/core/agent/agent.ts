import type { ProviderMessage } from './provider/types';
import { createAgentCore, type AgentCore } from './agent-core';
import type { AgentAnswer, AgentOptions, AskTarget } from './agent-options';
import { AskQueue } from './ask-queue';
import { runAsk } from './ask-run';

export { DEFAULT_MAX_ITERATIONS, INTERRUPTED_MARK, STOPPED_MARK, type AgentAnswer, type AgentOptions, type AskTarget } from './agent-options';

/**
 * The conversation object: a queue of asks, each run as a streaming tool-calling loop
 * (observe → model → tools → model …) reported through one onEvent callback.
 *
 * Its jobs live in their own files, each small: the conversation (conversation.ts), the ask
 * queue (ask-queue.ts), one ask from context to `done` (ask-run.ts), the loop (tool-loop.ts),
 * one round of tool calls (tool-round.ts) through the gate (guarded-call.ts), and one model
 * turn (model-turn.ts). Tools run through the one executor, core/tools/execute.ts.
 */
export class Agent {
  private readonly core: AgentCore;
  private readonly queue = new AskQueue();

  constructor(options: AgentOptions) {
    this.core = createAgentCore(options);
  }

  /**
   * Queues a question about the app `target.pid`. Resolves with the answer once this ask and
   * the ones before it have run; a stop resolves too (`stopped: true`). Rejects with the typed
   * error after emitting `error`, and the conversation stays usable.
   */
  ask(text: string, target: AskTarget): Promise<AgentAnswer> {
    const askId = this.queue.nextId();
    this.core.emit({ type: 'ask', askId, text, pid: target.pid });
    return this.queue.enqueue((signal) => runAsk(this.core, { askId, text, target }, signal));
  }

  /** Aborts the running ask and drops queued ones. Each ends with `done` and `stopped: true`. */
  stop(): void {
    this.queue.stop();
  }

  /**
   * The conversation so far, without the system prompt and context messages (they are rebuilt per ask).
   * Images are stubs in it, as they are in the conversation between asks: the snapshot travels
   * to the app and is saved, and megabytes of base64 have no place there.
   */
  history(): ProviderMessage[] {
    return this.core.conversation.snapshot();
  }

  /**
   * Replaces the conversation with one saved earlier (from history()), so a restarted host
   * carries on where the old one stopped. Only between asks: a running ask owns the history.
   * Images in a snapshot from elsewhere become stubs, as they would have after their ask.
   */
  restore(messages: readonly ProviderMessage[]): void {
    this.core.conversation.restore(messages);
  }

  /** Forgets the conversation, the cached answers, the "allow for this app" approvals and a refusal of images. */
  clear(): void {
    this.core.conversation.clear();
    this.core.cache?.clear();
    this.core.gate.clear();
  }
}
