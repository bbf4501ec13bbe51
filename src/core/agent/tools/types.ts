import type { z } from 'zod';
import type { Clock } from '../../clock';
import type { ActionEngine } from '../../actions/engine';
import type { Platform } from '../../platform/types';

/** What every tool returns. A failure is a result too: the model reads it and recovers. */
export interface ToolResult {
  success: boolean;
  /** What the model reads. Written for a model: short, specific, with the next step when there is one. */
  message: string;
  /** Structured detail for the UI, events and tests. */
  data?: unknown;
}

/**
 * What a tool may use. One context lives for one ask, so `focus_app` can move
 * `targetPid` and the next tool call acts on the new app.
 */
export interface ToolContext {
  engine: ActionEngine;
  platform: Platform;
  /** The app the user was in when they asked; tools act here unless told otherwise. */
  targetPid: number | undefined;
  /** Deskpilot's own processes: never listed, read or acted on (see AgentOptions.ownPids). */
  ownPids?: readonly number[];
  signal: AbortSignal;
  /** Progress lines for tool_log events (wait_for's polls, fill_form's fields). */
  log(text: string): void;
  /** Injected so tests can poll without waiting; the system clock otherwise. */
  clock?: Clock;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  /** OpenAI function names: letters, digits, _ and -, at most 64. */
  name: string;
  description: string;
  /** The one source of truth: arguments are validated by it and the JSON schema is derived from it. */
  schema: S;
  /** A line for the system prompt on when to use this tool, if the description is not enough. */
  promptSnippet?: string;
  handler(args: z.output<S>, context: ToolContext): Promise<ToolResult>;
}

/** Keeps a tool's handler typed by its own schema at the definition site. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}
