import type { z } from 'zod';
import type { ToolContext } from './context';

export interface ToolOutput<O> {
  /** What a model reads: compact text, already within the budget. */
  text: string;
  /** The same result for programs; it matches the tool's output schema. */
  structured: O;
  /** A result that says the call failed (a ui_action with success: false). */
  isError?: boolean;
}

export interface McpTool<A = unknown, O extends object = object> {
  name: string;
  title: string;
  /** Written for a model: when to call it, what comes back, what to do next. */
  description: string;
  /** The strict schema clients show the model (as JSON Schema). */
  input: z.ZodType;
  output: z.ZodObject;
  /** Validates raw arguments; throws ValidationError. */
  parse(args: unknown): A;
  run(args: A, context: ToolContext, signal: AbortSignal): Promise<ToolOutput<O>>;
  /** Only reads: kept in --read-only mode. */
  readOnly: boolean;
}

/** Keeps a tool's argument and output types tied together at its definition. */
export function defineMcpTool<A, O extends object>(tool: McpTool<A, O>): McpTool<A, O> {
  return tool;
}
