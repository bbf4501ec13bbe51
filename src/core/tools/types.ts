import type { z } from 'zod';
import type { UiNode } from '../../shared/ui-node';
import type { ActionEngine } from '../actions/engine';
import type { Clock } from '../clock';
import type { Platform, PlatformName } from '../platform/types';
import type { LineStyle } from '../ui/serialize';
import type { AppAllowList } from './allow-list';
import type { DocsService } from '../doc-search/service';
import type { ActionPlan, RiskReason } from '../../shared/risk';
import type { SerializedError } from '../../shared/errors';
import type { ToolGist } from '../../shared/tool-gist';

/** What every tool returns. A failure is a result too: the model reads it and recovers. */
export interface ToolResult {
  success: boolean;
  /** What the model reads. Written for a model: short, specific, with the next step when there is one. */
  message: string;
  /** Structured detail for programs (MCP structured content), the UI, events and tests. */
  data?: unknown;
  /**
   * Images for a model that can see (an MCP tool's screenshot), base64. `message` names each
   * one too, for a model that cannot; the agent keeps them out of events and saved history.
   */
  images?: { mimeType: string; data: string }[];
  /**
   * The typed error of a failed result. Tools may leave it out; the agent and the MCP server fill
   * it in (tools/failure.ts) from `data`, so every failed result that leaves them carries one.
   */
  error?: SerializedError;
  /** Set when the executor cut the result to the caller's budget (the text says so too). */
  truncated?: boolean;
}

/**
 * What a tool does to the apps it touches. `read` only observes; anything else may change
 * an app, so it goes through approval, keeps an ask out of the response cache and is checked
 * again before the agent says it is done. A tool that declares nothing counts as acting.
 */
export type ToolEffects = 'read' | 'act';

/**
 * How the end-state check can verify an acting tool's result, by the shape of its data:
 * `node` a UiActionResult, `fields` `{fields: FieldResult[]}`, `windows` `{before, after}`
 * window counts, `target` `{pid}` of the app now in front. Acting tools without one are
 * reported as not checked.
 */
export type ToolReport = 'node' | 'fields' | 'windows' | 'target';

/** Text the call would put into the app, per node it names: the safety gate keeps it out of secret fields. */
export interface TypedText {
  /** The node, by id or by the label a fill names it with. */
  id?: string;
  label?: string;
  text: string;
}

/**
 * Per-tool facts the safety gate reads, so it never needs to know a tool by name. The gate reads
 * them on the call as it will run: arguments validated by the tool's schema, put in the tool's
 * canonical form (`normalize`), and aimed at the app resolved from them (`target`).
 */
export interface ToolSafety<A> {
  /**
   * `app`: the call names its app with the target fields (pid, app, or none for the target
   * app). The gate resolves it once, as the handler would, judges that app's tree, and the call
   * then runs with that pid written in, so the app approved is the app acted on.
   */
  target?: 'app';
  /**
   * The arguments in the one spelling the code behind the tool reads them in (ids trimmed, keys
   * parsed): the gate judges that spelling and the call runs with it. Throws a typed error for
   * arguments the tool would refuse.
   */
  normalize?(args: A): A;
  /**
   * The node ids the call acts on. Each must be in the tree the gate read, or the call is refused
   * as the engine would refuse it: an id the gate could not judge never reaches the engine.
   */
  nodes?(args: A): (string | undefined)[];
  /** Text this call types or sets, and where. */
  typedText?(args: A, tree: UiNode | undefined): TypedText[];
  /** Why this call is risky enough to ask the user, read against the app's tree; undefined when it is not. */
  risk?(args: A, tree: UiNode | undefined, locate: (label: string) => UiNode | undefined, platform: PlatformName): RiskReason | undefined;
  /** For a reading tool: the node whose subtree its result shows (undefined: the whole app), or null for none. */
  readRoot?(args: A): string | undefined | null;
  /** The app the call is about when it is not the current target (ui_focus_app's pid). */
  otherApp?(args: A): { pid?: number; name?: string } | undefined;
  /** What the call will do, in the app's own names, for the approval question. */
  plan?(args: A, tree: UiNode | undefined): ActionPlan;
}

/**
 * What a tool may use. One context lives for one agent ask or one MCP call. The target rules
 * (a default app, Deskpilot's own pids, an allow-list) come with it, so every program's tools
 * resolve apps the same way (see target.ts).
 */
export interface ToolContext {
  engine: ActionEngine;
  platform: Platform;
  /** The app tools act on when a call names none: the app the user was in. Undefined where every call must name its app (MCP). */
  targetPid: number | undefined;
  /** Deskpilot's own processes: never listed, read or acted on. */
  ownPids?: readonly number[];
  /** Apps a program may touch (`deskpilot mcp --apps`); every app without one. */
  allowList?: AppAllowList;
  /** Most characters in one result, where the program has a budget (MCP's --max-chars). */
  maxChars?: number;
  /** How tree lines are printed: `compact` for the agent's model, `full` where people read them too. */
  lineStyle?: LineStyle;
  signal: AbortSignal;
  /** Progress lines for tool_log events (ui_wait_for's polls, ui_fill_form's fields). */
  log(text: string): void;
  /** Injected so tests can poll without waiting; the system clock otherwise. */
  clock?: Clock;
  /** Documentation search, where the program set it up (search_docs). */
  docs?: DocsService;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  /** OpenAI function names: letters, digits, _ and -, at most 64. The built-ins are `ui_*`. */
  name: string;
  /** The name MCP clients call it by, where that differs (MCP tools are named noun_verb). */
  mcpName?: string;
  /** A short human title (MCP clients show it). */
  title?: string;
  description: string;
  /** The one source of truth: arguments are validated by it and the JSON schema is derived from it. */
  schema: S;
  /** The JSON schema the model sees when it does not come from `schema`: an external MCP tool's own. */
  parameters?: Record<string, unknown>;
  /** Where a tool from one of the user's MCP servers comes from: approvals name it, and the user may allow it or its server for good. */
  external?: { server: string; tool: string };
  /** The shape of `data` for programs (MCP's output schema), where the tool promises one. */
  output?: z.ZodObject;
  /** See ToolEffects. Undefined counts as 'act'. */
  effects?: ToolEffects;
  reports?: ToolReport;
  /** `conversation`: only meaningful where calls share a current target app (the agent), so the MCP server leaves it out. */
  scope?: 'conversation';
  safety?: ToolSafety<z.output<S>>;
  /** A line for the system prompt on when to use this tool, if the description is not enough. */
  promptSnippet?: string;
  /**
   * The call in people's words (a verb, a target, a short key), read from its arguments as the
   * model sent them, valid or not: the window and the CLI show it, so neither lists tool names.
   * Without one a call reads "Ran <title or name>" (gist.ts).
   */
  describe?(args: Readonly<Record<string, unknown>>): ToolGist;
  handler(args: z.output<S>, context: ToolContext): Promise<ToolResult>;
}

/**
 * A tool of any schema: what lists, registries and the executor hold. The generic is erased here
 * once, and every `Tool<S>` is one without a cast: `handler` and `safety` are methods, which the
 * compiler checks bivariantly, and only the executor calls them, with what `schema` parsed.
 */
export type AnyTool = Tool<z.ZodType>;

/** Keeps a tool's handler typed by its own schema at the definition site. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** Reading tools say so; everything else, a plugin's tool that declares nothing included, acts. */
export function isReadOnly(tool: Pick<Tool, 'effects'> | undefined): boolean {
  return tool?.effects === 'read';
}
