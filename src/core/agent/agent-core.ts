import type { AgentEvent, DoneReason, EndStateCheck } from '../../shared/agent-events';
import type { Language } from '../../shared/i18n/i18n';
import { systemClock, type Clock } from '../clock';
import { DEFAULT_MAX_ITERATIONS, type AgentAnswer, type AgentOptions, type AskTarget } from './agent-options';
import { Conversation } from './conversation';
import type { VisionMode } from './provider/vision';
import { ResponseCache } from './response-cache';
import { SafetyGate } from './safety/gate';
import { DEFAULT_APPROVAL_POLICY } from './safety/types';

/**
 * What the parts of an Agent share: its options, the conversation, the cache and the safety
 * gate, made once per Agent. The parts are functions over it (ask-run, tool-loop, tool-round,
 * model-turn), so each stays small and none holds state of its own.
 */
export interface AgentCore {
  readonly options: AgentOptions;
  readonly clock: Clock;
  readonly maxIterations: number;
  readonly conversation: Conversation;
  readonly cache: ResponseCache | undefined;
  readonly gate: SafetyGate;
  readonly ownPids: readonly number[];
  emit(event: AgentEvent): void;
}

/** One running ask: the answer language is its prompt's, its tool descriptions' and the words the agent writes itself. */
export interface AskState {
  readonly askId: string;
  readonly target: AskTarget;
  readonly signal: AbortSignal;
  readonly language: Language;
}

export function createAgentCore(options: AgentOptions): AgentCore {
  const clock = options.clock ?? systemClock;
  return {
    options,
    clock,
    maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    conversation: new Conversation(),
    cache: options.cache === false ? undefined : (options.cache ?? new ResponseCache({ clock })),
    gate: new SafetyGate(options.approvalPolicy ?? DEFAULT_APPROVAL_POLICY, options.toolAllowances),
    ownPids: [...(options.ownPids ?? [process.pid])],
    emit: (event) => options.onEvent(event),
  };
}

/** The `done` event and the answer it resolves with. */
export function finish(core: AgentCore, askId: string, text: string, reason: DoneReason, extra: { cached?: true; check?: EndStateCheck } = {}): AgentAnswer {
  const stopped = reason === 'stopped';
  core.emit({ type: 'done', askId, answer: text, stopped, reason, ...extra });
  return { askId, text, stopped, reason, ...extra };
}

export function visionMode(core: AgentCore): VisionMode {
  const { vision } = core.options;
  return typeof vision === 'function' ? vision() : (vision ?? 'auto');
}

/** Why images are not sent to this model, or undefined when they are. */
export function imagesNotSent(core: AgentCore): string | undefined {
  if (visionMode(core) === 'off') return 'images are off for this model';
  return core.conversation.textOnly ? 'the model does not take images' : undefined;
}
