import type { AgentEvent, AgentToolCall, AgentUsage, DoneReason, EndStateCheck } from '../../shared/agent-events';
import { StoppedError, serializeError, type ErrorCode } from '../../shared/errors';
import type { Language } from '../../shared/i18n/i18n';
import type { ActionEngine } from '../actions/engine';
import { systemClock, type Clock } from '../clock';
import type { Platform } from '../platform/types';
import { abortable } from './abortable';
import { compactHistory, type CompactionOptions } from './compaction';
import { buildContextMessage, quoteToolResult } from './context-message';
import { ActionLedger, unconfirmedNote, unconfirmedSummary } from './end-state';
import type { Provider, ProviderMessage } from './provider/types';
import { rejectsImages, type VisionMode } from './provider/vision';
import { ResponseCache, conversationKey, isCacheableToolUse, type CacheScope, type CachedAnswer } from './response-cache';
import { SafetyGate, type AskSafetyState } from './safety/gate';
import type { ToolAllowance } from '../../shared/tool-allowances';
import { DEFAULT_APPROVAL_POLICY, type ApprovalDecider, type ApprovalPolicy, type ApprovalRequest } from './safety/types';
import { agentInputAsker } from './safety/input-approval';
import { askingAbout } from '../actions/keep-devices';
import { defaultSystemPrompt } from './system-prompt';
import { answerLanguage, DEFAULT_LANGUAGES, type LanguageSettings } from './language';
import { agentText } from './text/agent-text';
import { OwnAppError } from '../tools/target';
import { withFailure } from '../tools/failure';
import type { DocsService } from '../docs/service';
import type { Tool, ToolContext, ToolResult } from '../tools/types';
import { argumentObject, type ToolRegistry } from './tools/registry';
import { dropImages, hasImages, imagesMessage, imagesNotShown, IMAGES_GONE, IMAGES_REFUSED, type ToolImages } from './tool-images';

export const DEFAULT_MAX_ITERATIONS = 10;
export const INTERRUPTED_MARK = '[interrupted: the response was cut off]';
export const STOPPED_MARK = '[stopped by the user]';
const NOT_RUN = 'not run: the user stopped the task before this tool ran';

export interface AskTarget {
  pid: number;
}

export interface AgentAnswer {
  askId: string;
  text: string;
  stopped: boolean;
  reason: DoneReason;
  /** Set when the answer came from the response cache and no model was called. */
  cached?: boolean;
  /** After an ask that acted: whether a fresh look at the app matched what the actions reported. */
  check?: EndStateCheck;
}

export interface AgentOptions {
  provider: Provider;
  /** Documentation search for search_docs; the tool says it is not set up without it. */
  docs?: DocsService;
  /**
   * Tools from the user's MCP servers, asked for on every ask (servers start on the first one;
   * afterwards the list is at hand). They join the registry beside the built-ins.
   */
  externalTools?: () => Promise<Tool[]>;
  tools: ToolRegistry;
  engine: ActionEngine;
  platform: Platform;
  clock?: Clock;
  onEvent: (event: AgentEvent) => void;
  systemPrompt?: (tools: ToolRegistry, language: Language) => string;
  /**
   * The UI's language and the answer-language setting, read on each ask. The answer follows the
   * setting, else the question's language, else the UI's. Default: English UI, `auto`.
   */
  languages?: () => LanguageSettings;
  /** The context message for one ask; injected so a richer builder (item 3) can replace the minimal one. */
  buildContext?: (target: AskTarget) => Promise<string>;
  /** Model calls per ask; the last one that still asks for tools ends the ask with a message instead. */
  maxIterations?: number;
  /** Plain answers by (question, UI state) for 5 minutes; `false` turns caching off. Default: a new cache on `clock`. */
  cache?: ResponseCache | false;
  /** History summarization before an ask once it passes 10 messages; `false` turns it off. */
  compaction?: CompactionOptions | false;
  /** Which acting tool calls need the user's approval (see SafetyGate). Default `confirm-risky`. */
  approvalPolicy?: ApprovalPolicy;
  /** The user's standing allowances for tools of their MCP servers, read at each call (Settings changes them). */
  toolAllowances?: () => readonly ToolAllowance[];
  /**
   * Answers an approval request (also emitted as an `approval_request` event). Without it,
   * every call that needs approval is denied with a message to the model.
   */
  decide?: ApprovalDecider;
  /**
   * Deskpilot's own processes (the app's main process, the automation host). The context,
   * ui_apps, ui_focus_app and ui_tree never show or target them, and an ask aimed at one fails
   * with OwnAppError. Default: this process.
   */
  ownPids?: readonly number[];
  /**
   * Whether images from tools (an MCP server's screenshot) go to the model: see VisionMode.
   * Default `auto`: sent, until the provider refuses a request for them. A function is read at
   * each model call, so a change in Settings applies to the next one.
   */
  vision?: VisionMode | (() => VisionMode);
}

interface Pending {
  askId: string;
  text: string;
  target: AskTarget;
  generation: number;
}

/** What one model turn produced; `cut` is set when the stream failed or was stopped part-way. */
/** How the tool loop ended, before the end-state check and the `done` event. */
interface Outcome {
  text: string;
  reason: DoneReason;
}

const STOPPED: Outcome = { text: '', reason: 'stopped' };

interface Turn {
  text: string;
  toolCalls: AgentToolCall[];
  finishReason: string;
  usage?: AgentUsage;
}

/**
 * The conversation object: a queue of asks, each run as a streaming tool-calling loop
 * (observe → model → tools → model …) reported through one onEvent callback.
 *
 * Invariants the provider relies on: every assistant message with tool_calls is followed by
 * exactly one tool message per call id (a stop fills the ones that did not run), and a
 * failed or stopped turn never leaves half a tool round behind.
 */
export class Agent {
  private readonly options: AgentOptions;
  private readonly clock: Clock;
  private readonly maxIterations: number;
  private readonly messages: ProviderMessage[] = [];
  private tail: Promise<unknown> = Promise.resolve();
  private controller: AbortController | undefined;
  /** Bumped by stop(), so asks queued before the stop are dropped and later ones run. */
  private generation = 0;
  private askCount = 0;
  private readonly cache: ResponseCache | undefined;
  private readonly gate: SafetyGate;
  private readonly ownPids: readonly number[];
  /** The running ask's answer language: its prompt, tool descriptions and the words the agent writes itself. */
  private language: Language = 'en';
  /** Set when the provider refused images (`auto`): the rest of the conversation names them only. */
  private textOnly = false;

  constructor(options: AgentOptions) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    this.cache = options.cache === false ? undefined : (options.cache ?? new ResponseCache({ clock: this.clock }));
    this.gate = new SafetyGate(options.approvalPolicy ?? DEFAULT_APPROVAL_POLICY, options.toolAllowances);
    this.ownPids = [...(options.ownPids ?? [process.pid])];
  }

  /**
   * Queues a question about the app `target.pid`. Resolves with the answer once this ask and
   * the ones before it have run; a stop resolves too (`stopped: true`). Rejects with the typed
   * error after emitting `error`, and the conversation stays usable.
   */
  ask(text: string, target: AskTarget): Promise<AgentAnswer> {
    this.askCount += 1;
    const pending: Pending = { askId: `ask-${this.askCount}`, text, target, generation: this.generation };
    this.emit({ type: 'ask', askId: pending.askId, text, pid: target.pid });
    const run = this.tail.then(() => this.run(pending));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Aborts the running ask and drops queued ones. Each ends with `done` and `stopped: true`. */
  stop(): void {
    this.generation += 1;
    this.controller?.abort(new StoppedError());
  }

  /**
   * The conversation so far, without the system prompt and context messages (they are rebuilt per ask).
   * Images are stubs in it, as they are in the conversation between asks (see run()): the
   * snapshot travels to the app and is saved, and megabytes of base64 have no place there.
   */
  history(): ProviderMessage[] {
    const messages = structuredClone(this.messages);
    dropImages(messages, IMAGES_GONE);
    return messages;
  }

  /**
   * Replaces the conversation with one saved earlier (from history()), so a restarted host
   * carries on where the old one stopped. Only between asks: a running ask owns the history.
   * Images in a snapshot from elsewhere become stubs, as they would have after their ask.
   */
  restore(messages: readonly ProviderMessage[]): void {
    this.messages.length = 0;
    this.messages.push(...structuredClone(messages));
    dropImages(this.messages, IMAGES_GONE);
  }

  /** Forgets the conversation, the cached answers, the "allow for this app" approvals and a refusal of images. */
  clear(): void {
    this.messages.length = 0;
    this.cache?.clear();
    this.gate.clear();
    this.textOnly = false;
  }

  private emit(event: AgentEvent): void {
    this.options.onEvent(event);
  }

  private finish(askId: string, text: string, reason: DoneReason, extra: { cached?: true; check?: EndStateCheck } = {}): AgentAnswer {
    const stopped = reason === 'stopped';
    this.emit({ type: 'done', askId, answer: text, stopped, reason, ...extra });
    return { askId, text, stopped, reason, ...extra };
  }

  /** A repeat of a plain question on the same UI state: the events of a plain answer, without the model. */
  private answerFromCache(askId: string, question: string, context: string, model: string, { text, storedAt }: CachedAnswer): AgentAnswer {
    this.emit({ type: 'ai_chunk', askId, delta: text });
    this.emit({ type: 'ai_response', askId, text, toolCalls: [], finishReason: 'stop' });
    this.messages.push({ role: 'user', content: question }, { role: 'assistant', content: text });
    this.rememberRepeat(question, context, text, model, storedAt);
    return this.finish(askId, text, 'answered', { cached: true });
  }

  /**
   * Asking the same thing right after its answer gets the same answer, so the answer is also
   * kept under the conversation as it is now, with this exchange in it.
   */
  private rememberRepeat(question: string, context: string, text: string, model: string, storedAt = this.clock.now()): void {
    this.cache?.set(question, context, text, { conversation: conversationKey(this.messages), model, language: this.language }, storedAt);
  }

  /**
   * The cache scope of an ask: the conversation so far and the model that would answer.
   * Undefined (no caching this ask) when the model cannot be named: the request will say why.
   */
  private async cacheScope(signal: AbortSignal): Promise<Required<CacheScope> | undefined> {
    if (this.cache === undefined) return undefined;
    const conversation = conversationKey(this.messages);
    try {
      const model = await abortable(this.options.provider.identity?.() ?? Promise.resolve(''), signal);
      // An answer in another language is not this one's either (the setting may have changed).
      return { conversation, model, language: this.language };
    } catch (error) {
      if (signal.aborted) throw error;
      return undefined;
    }
  }

  /** Summarizes old turns; on any failure but a stop the history stays as it was and the ask goes on. */
  private async compact(signal: AbortSignal): Promise<void> {
    if (this.options.compaction === false) return;
    try {
      const compacted = await abortable(compactHistory(this.options.provider, [...this.messages], signal, this.options.compaction), signal);
      if (compacted !== undefined) this.messages.splice(0, this.messages.length, ...compacted);
    } catch (error) {
      if (signal.aborted) throw error;
    }
  }

  private async run(pending: Pending): Promise<AgentAnswer> {
    const { askId } = pending;
    if (pending.generation !== this.generation) return this.finish(askId, '', 'stopped');
    const controller = new AbortController();
    this.controller = controller;
    const { signal } = controller;
    try {
      if (this.ownPids.includes(pending.target.pid)) throw new OwnAppError(pending.target.pid);
      this.language = answerLanguage(pending.text, this.options.languages?.() ?? DEFAULT_LANGUAGES);
      if (this.options.externalTools !== undefined) this.options.tools.setExternalTools(await abortable(this.options.externalTools(), signal));
      const context = await abortable(this.buildContext(pending.target), signal);
      // The conversation before this ask is part of the key: "and now?" means something else after another turn.
      // So is the model: after a switch, another model's answer is not this one's.
      const scope = await this.cacheScope(signal);
      const cached = scope === undefined ? undefined : this.cache?.entry(pending.text, context, scope);
      if (cached !== undefined && scope !== undefined) return this.answerFromCache(askId, pending.text, context, scope.model, cached);
      await this.compact(signal);
      const systemPrompt = (this.options.systemPrompt ?? defaultSystemPrompt)(this.options.tools, this.language);
      const before = [...this.messages];
      this.messages.push({ role: 'user', content: pending.text });
      // The context sits just before the question and is not kept: the next ask observes afresh.
      const request = (): ProviderMessage[] => [
        { role: 'system', content: systemPrompt },
        ...before,
        { role: 'user', content: context },
        ...this.messages.slice(before.length),
      ];
      const toolsUsed = new Set<string>();
      const ledger = new ActionLedger(this.language);
      let outcome: Outcome;
      try {
        outcome = await this.loop(askId, pending.target, request, signal, toolsUsed, ledger, { userText: pending.text, readContent: false });
      } finally {
        // Images are seen in the ask that got them. Later asks read a stub: sending megabytes
        // again on every call costs more than calling the tool again, and the running
        // conversation stays the same as a saved and restored one (and its cache key).
        dropImages(this.messages, IMAGES_GONE);
      }
      if (outcome.reason === 'stopped') return this.finish(askId, '', 'stopped');
      if (ledger.acted) return await this.finishChecked(askId, outcome, ledger, signal);
      // Only plain answers: never a stop, an iteration limit, or anything that acted.
      if (
        scope !== undefined &&
        outcome.reason === 'answered' &&
        outcome.text !== '' &&
        isCacheableToolUse([...toolsUsed].map((name) => this.options.tools.tool(name)))
      ) {
        this.cache?.set(pending.text, context, outcome.text, scope);
        this.rememberRepeat(pending.text, context, outcome.text, scope.model);
      }
      return this.finish(askId, outcome.text, outcome.reason);
    } catch (error) {
      // After a stop, whatever was thrown is the stop itself (or noise from work being cut off).
      if (signal.aborted) return this.finish(askId, '', 'stopped');
      this.emit({ type: 'error', askId, error: serializeError(error) });
      throw error;
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /**
   * Before saying done after acting: look at the app again and compare it with what the
   * actions reported. When it does not match, or cannot be seen, the answer says so (streamed
   * as one more chunk, in `done` and in `check.notes`). The history's last assistant message
   * gets only a count of failed checks: the notes quote app text, and the model would later
   * read it as its own words. A stop during the look is a stop.
   */
  private async finishChecked(askId: string, outcome: Outcome, ledger: ActionLedger, signal: AbortSignal): Promise<AgentAnswer> {
    const { check, problems } = await abortable(ledger.check(this.options.engine, this.options.platform, signal), signal);
    signal.throwIfAborted();
    let text = outcome.text;
    if (!check.confirmed) {
      const separator = text === '' ? '' : '\n\n';
      const addition = `${separator}${unconfirmedNote(problems, this.language)}`;
      const last = this.messages.at(-1);
      if (last?.role === 'assistant') last.content = `${text}${separator}${unconfirmedSummary(problems, this.language)}`;
      text += addition;
      this.emit({ type: 'ai_chunk', askId, delta: addition });
    }
    return this.finish(askId, text, outcome.reason, { check });
  }

  private buildContext(target: AskTarget): Promise<string> {
    if (this.options.buildContext !== undefined) return this.options.buildContext(target);
    return buildContextMessage(this.options.engine, this.options.platform, target.pid, { ownPids: this.ownPids });
  }

  private async loop(
    askId: string,
    target: AskTarget,
    request: () => ProviderMessage[],
    signal: AbortSignal,
    toolsUsed: Set<string>,
    ledger: ActionLedger,
    safety: AskSafetyState,
  ): Promise<Outcome> {
    let callId = '';
    const toolContext: ToolContext = {
      engine: this.options.engine,
      platform: this.options.platform,
      targetPid: target.pid,
      ownPids: this.ownPids,
      // The model reads ids first on every line: brackets would only cost tokens.
      lineStyle: 'compact',
      signal,
      clock: this.clock,
      log: (text) => this.emit({ type: 'tool_log', askId, callId, text }),
      ...(this.options.docs === undefined ? {} : { docs: this.options.docs }),
    };
    /** The last call whose images went to the model: a refusal of them is noted under it. */
    let imagesFrom = '';
    for (let iteration = 1; iteration <= this.maxIterations; iteration += 1) {
      const turn = await this.modelTurn(askId, iteration, request, signal, imagesFrom);
      if (turn === 'stopped') return STOPPED;
      this.emit({ type: 'ai_response', askId, ...turn });
      if (turn.toolCalls.length === 0) {
        this.messages.push({ role: 'assistant', content: turn.text });
        return { text: turn.text, reason: 'answered' };
      }
      this.messages.push({
        role: 'assistant',
        content: turn.text === '' ? null : turn.text,
        tool_calls: turn.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
      });
      const shown: ToolImages[] = [];
      for (const [index, call] of turn.toolCalls.entries()) {
        if (signal.aborted) return this.stopRound(turn.toolCalls.slice(index));
        callId = call.id;
        toolsUsed.add(call.name);
        let result: ToolResult;
        // Before the call: ui_focus_app moves the target, and the call acted on the old one (or the pid it named).
        const named = argumentObject(call.arguments)['pid'];
        let actedOn = typeof named === 'number' ? named : toolContext.targetPid;
        try {
          const guarded = await abortable(this.guardedCall(call, askId, toolContext, safety), signal);
          // Every failed result leaves the agent with its typed error, whichever way it failed.
          result = withFailure(guarded.result);
          actedOn = guarded.pid ?? actedOn;
        } catch (error) {
          // The registry only throws on abort; anything else would be a bug, and the model still needs a result.
          if (!signal.aborted) throw error;
          return this.stopRound(turn.toolCalls.slice(index));
        }
        // Images stay out of events: they travel to the window, and people see the message.
        const { images = [], ...plain } = result;
        this.emit({ type: 'tool_result', askId, callId: call.id, name: call.name, ...plain });
        ledger.record(call.name, this.options.tools.tool(call.name), call.arguments, actedOn, result);
        // Events keep the plain message for people; the model gets it quoted as data.
        let content = quoteToolResult(call.name, result.message);
        if (images.length > 0) {
          const notSent = this.imagesNotSent();
          if (notSent !== undefined) content += `\n${imagesNotShown(images.length, notSent)}`;
          else {
            shown.push({ tool: call.name, images });
            imagesFrom = call.id;
          }
        }
        this.messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
      if (signal.aborted) return STOPPED;
      // After every tool message of the round: an assistant's tool_calls must be answered first.
      if (shown.length > 0) this.messages.push(imagesMessage(shown));
    }
    const text = agentText(this.language)('answers.iterationLimit', { count: this.maxIterations });
    this.messages.push({ role: 'assistant', content: text });
    return { text, reason: 'iteration_limit' };
  }

  /**
   * One tool call through the safety gate: a refusal or a denial is the tool's result, so the
   * model reads why and the loop goes on. Only calls of registered tools are checked; an
   * unknown name gets the registry's own message.
   */
  private async guardedCall(
    call: AgentToolCall,
    askId: string,
    context: ToolContext,
    safety: AskSafetyState,
  ): Promise<{ result: ToolResult; pid?: number | undefined }> {
    const definition = this.options.tools.tool(call.name);
    // Announced once the gate has read the call, so text bound for a secret field is shown masked.
    const announce = (shown: string | undefined): void => {
      if (!context.signal.aborted) this.emit({ type: 'tool_call', askId, callId: call.id, name: call.name, arguments: shown ?? call.arguments });
    };
    let runArguments = call.arguments;
    let pid: number | undefined;
    if (definition === undefined) announce(undefined);
    else {
      const outcome = await this.gate.check({ askId, callId: call.id, tool: call.name, definition, rawArguments: call.arguments }, context, safety);
      announce(outcome.shown);
      if (outcome.kind === 'refuse') return { result: outcome.result };
      // The call runs as the gate resolved and judged it: the same app, ids and keys.
      runArguments = outcome.runArguments ?? call.arguments;
      pid = outcome.pid;
      if (outcome.kind === 'ask') {
        const { request } = outcome;
        this.emit({ type: 'approval_request', ...request });
        const decide = this.options.decide;
        if (decide === undefined) {
          return {
            result: {
              success: false,
              message: `DENIED: this action needs the user's approval (${request.reason}) and nobody can approve it here; ask the user or choose another way`,
              data: { code: 'DENIED' satisfies ErrorCode, approvalId: request.id },
            },
          };
        }
        const decision = await abortable(decide(request), context.signal);
        context.signal.throwIfAborted();
        if (decision === 'deny') {
          return {
            result: {
              success: false,
              message: `DENIED: the user declined ${call.name} (${request.reason}); do not retry it: ask the user or choose another way`,
              data: { code: 'DENIED' satisfies ErrorCode, approvalId: request.id },
            },
          };
        }
        this.gate.grant(outcome, decision);
      }
    }
    const run = (): Promise<ToolResult> => this.options.tools.call(call.name, runArguments, context);
    // "Never take my pointer or keyboard": input steps inside this call are put to the user, each as itself.
    const decider = this.options.decide;
    const decide: ApprovalDecider | undefined = decider === undefined ? undefined : (request) => abortable(decider(request), context.signal);
    const announceInput = (request: ApprovalRequest): void => this.emit({ type: 'approval_request', ...request });
    const inputCall = { askId, callId: call.id, tool: call.name };
    const result =
      decide === undefined
        ? await run()
        : await askingAbout(agentInputAsker({ gate: this.gate, call: inputCall, context, decide, announce: announceInput }), run);
    if (result.success && definition !== undefined) await this.gate.noteRead(definition, call.arguments, context, safety);
    return { result, pid };
  }

  private visionMode(): VisionMode {
    const { vision } = this.options;
    return typeof vision === 'function' ? vision() : (vision ?? 'auto');
  }

  /** Why images are not sent to this model, or undefined when they are. */
  private imagesNotSent(): string | undefined {
    if (this.visionMode() === 'off') return 'images are off for this model';
    return this.textOnly ? 'the model does not take images' : undefined;
  }

  /**
   * One model call. In `auto`, a request refused for its images is made again at once without
   * them (each named instead), and the conversation stays text-only from then on; the user is
   * told once, under the call whose images were refused. Nothing else of the conversation changes.
   */
  private async modelTurn(
    askId: string,
    iteration: number,
    request: () => ProviderMessage[],
    signal: AbortSignal,
    imagesFrom: string,
  ): Promise<Turn | 'stopped'> {
    const messages = request();
    this.emit({ type: 'ai_request', askId, iteration, messageCount: messages.length });
    try {
      return await this.streamTurn(askId, messages, signal);
    } catch (error) {
      const auto = this.visionMode() === 'auto';
      if (!auto || this.textOnly || !messages.some(hasImages) || !rejectsImages(error)) throw error;
      this.textOnly = true;
      dropImages(this.messages, IMAGES_REFUSED);
      this.emit({
        type: 'tool_log',
        askId,
        callId: imagesFrom,
        text: 'The model does not take images, so images from tools are only named to it for the rest of this conversation.',
      });
      return this.modelTurn(askId, iteration, request, signal, imagesFrom);
    }
  }

  /** Closes a tool round cut by stop(), so every tool_call id still gets its one tool message. */
  private stopRound(notRun: AgentToolCall[]): Outcome {
    for (const call of notRun) this.messages.push({ role: 'tool', tool_call_id: call.id, content: NOT_RUN });
    return STOPPED;
  }

  /**
   * One streamed model turn. Tool calls of a turn that did not finish are dropped, never run:
   * the model had not finished deciding. Its text is kept, marked, so the user still sees it.
   */
  private async streamTurn(askId: string, messages: ProviderMessage[], signal: AbortSignal): Promise<Turn | 'stopped'> {
    const turn: Turn = { text: '', toolCalls: [], finishReason: '' };
    const iterator = this.options.provider.stream({ messages, tools: this.options.tools.definitions(this.language) }, signal)[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await abortable(iterator.next(), signal);
        if (next.done === true) break;
        const part = next.value;
        if (part.type === 'text') {
          turn.text += part.delta;
          this.emit({ type: 'ai_chunk', askId, delta: part.delta });
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
        this.keepPartial(turn.text, STOPPED_MARK);
        return 'stopped';
      }
      this.keepPartial(turn.text, INTERRUPTED_MARK);
      throw error;
    }
    // A provider ends quietly on abort (cancellation is not an error), so check here too.
    if (signal.aborted) {
      this.keepPartial(turn.text, STOPPED_MARK);
      return 'stopped';
    }
    return turn;
  }

  private keepPartial(text: string, mark: string): void {
    if (text !== '') this.messages.push({ role: 'assistant', content: `${text}\n${mark}` });
  }
}
