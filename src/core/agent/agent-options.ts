import type { DoneReason, EndStateCheck, AgentEvent } from '../../shared/agent-events';
import type { Language } from '../../shared/i18n/i18n';
import type { ToolAllowance } from '../../shared/tool-allowances';
import type { ActionEngine } from '../actions/engine';
import type { Clock } from '../clock';
import type { DocsService } from '../doc-search/service';
import type { Platform } from '../platform/types';
import type { AnyTool } from '../tools/types';
import type { CompactionOptions } from './compaction';
import type { LanguageSettings } from './language';
import type { Provider } from './provider/types';
import type { VisionMode } from './provider/vision';
import type { ResponseCache } from './response-cache';
import type { ApprovalDecider, ApprovalPolicy } from './safety/types';
import type { ToolRegistry } from './tool-registry/registry';

/** What an Agent is made of and what it answers: its constructor's options and an ask's answer. */

export const DEFAULT_MAX_ITERATIONS = 10;
export const INTERRUPTED_MARK = '[interrupted: the response was cut off]';
export const STOPPED_MARK = '[stopped by the user]';

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
  externalTools?: () => Promise<AnyTool[]>;
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
