import { serializeError, ValidationError, type SerializedError } from '../../shared/errors';
import { describeIssues } from '../../shared/validation';
import { errorText } from './advice';
import { fitJson, fitText } from './budget';
import { withFailure } from './failure';
import type { AnyTool, ToolContext, ToolResult } from './types';

/**
 * The one way a tool runs, for the agent and the MCP server alike: parse the arguments, validate
 * them with the tool's schema, run the handler, turn a throw into a failed result carrying the
 * serialized error, and fit the result to the caller's budget. Both programs word every failure
 * the same way because both come through here. A stop is the one thing that still throws:
 * cancelling is the user's decision, not a failure for the model to work around.
 */

/** A model's arguments as it sent them (a JSON string), or an MCP client's, already parsed. */
export type RawArguments = { json: string } | { value: unknown };

/** Arguments the schema accepted, with a note for a model whose JSON was bad but whose tool needs none. */
export type Prepared = { ok: true; args: unknown; jsonNote?: string } | { ok: false; result: ToolResult };

export interface ExecuteOptions {
  /** Told of every error a handler threw that was not a stop, before it becomes a result (the MCP server logs INTERNAL ones). */
  onThrow?: (error: unknown) => void;
}

/** What a cut result tells its reader to do about it. */
const BUDGET_HINT = 'Ask for less: ui_tree with rootId and depth.';

/** Parses a model's argument string. Empty means no arguments, which models send for no-arg tools. */
export function parseArguments(raw: string): { value: unknown; jsonError?: string } {
  if (raw.trim() === '') return { value: {} };
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { value: {}, jsonError: error instanceof Error ? error.message : String(error) };
  }
}

/** A typed error as a failed result: `CODE: message` and the next step for the model, the error itself for programs. */
export function errorResult(error: unknown): ToolResult {
  const serialized: SerializedError = serializeError(error);
  return { success: false, message: errorText(serialized), data: { error: serialized }, error: serialized };
}

/** A call of a name no tool has: says so, names the one meant when only the case is wrong, else lists the tools. */
export function unknownToolResult(name: string, known: readonly string[]): ToolResult {
  const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  // Tool names are short: a longer one cannot be a known name in another case.
  const lower = name.length > 64 ? undefined : name.toLowerCase();
  const meant = known.find((each) => each.toLowerCase() === lower);
  const hint = meant === undefined ? `Tools: ${known.join(', ')}.` : `Tool names are lowercase: call '${meant}'.`;
  return errorResult(
    new ValidationError(`unknown tool '${shown}'. ${hint}`, { data: { tool: shown, reason: 'unknown_tool', ...(meant === undefined ? {} : { meant }) } }),
  );
}

/**
 * Parses and validates, touching nothing: the MCP server does this before it makes a platform,
 * so a bad call says so even on a machine with no desktop. Bad JSON counts as `{}`, so a tool
 * without arguments still runs, and one with arguments names what is missing and why.
 */
export function prepareCall(tool: AnyTool, raw: RawArguments): Prepared {
  const { value, jsonError } = 'json' in raw ? parseArguments(raw.json) : { value: raw.value ?? {} };
  const jsonNote = jsonError === undefined ? undefined : `the arguments were not valid JSON (${jsonError}), so {} was used`;
  const parsed = tool.schema.safeParse(value);
  if (parsed.success) return { ok: true, args: parsed.data, ...(jsonNote === undefined ? {} : { jsonNote }) };
  const problems = describeIssues(parsed.error.issues, { input: value });
  const error = new ValidationError(`invalid arguments for ${tool.name}: ${jsonNote === undefined ? '' : `${jsonNote}; `}${problems}`, {
    data: jsonError === undefined ? {} : { jsonError },
  });
  return { ok: false, result: errorResult(error) };
}

/** Runs arguments prepareCall accepted. Never throws but for a stop; the result fits `context.maxChars`. */
export async function runPrepared(
  tool: AnyTool,
  prepared: Extract<Prepared, { ok: true }>,
  context: ToolContext,
  options: ExecuteOptions = {},
): Promise<ToolResult> {
  let result: ToolResult;
  try {
    context.signal.throwIfAborted();
    result = await tool.handler(prepared.args, context);
    context.signal.throwIfAborted();
    // A tool that needs no arguments still ran; say the JSON was bad so the model does not repeat it.
    if (prepared.jsonNote !== undefined) result = { ...result, message: `(${prepared.jsonNote}) ${result.message}` };
  } catch (error) {
    if (context.signal.aborted) throw error;
    options.onThrow?.(error);
    result = errorResult(error);
  }
  return fitBudget(withFailure(result), context.maxChars);
}

/** prepareCall then runPrepared: what a caller with its context at hand uses. */
export async function executeTool(tool: AnyTool, raw: RawArguments, context: ToolContext, options: ExecuteOptions = {}): Promise<ToolResult> {
  const prepared = prepareCall(tool, raw);
  if (!prepared.ok) return fitBudget(prepared.result, context.maxChars);
  return runPrepared(tool, prepared, context, options);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The last guard of a budget (the tools fit their own results first): the message, the data and
 * the error each fit on their own, because a client hands its model one of them. A cut says so
 * in the text and in `truncated`. Images are not counted: they go beside the text.
 */
export function fitBudget(result: ToolResult, maxChars: number | undefined): ToolResult {
  if (maxChars === undefined) return result;
  const message = fitText(result.message, maxChars, BUDGET_HINT);
  const data = isRecord(result.data) ? fitJson(result.data, maxChars) : undefined;
  const error = result.error === undefined ? undefined : fitJson(result.error, maxChars);
  if (!message.truncated && data?.truncated !== true && error?.truncated !== true) return result;
  return {
    ...result,
    message: message.value,
    ...(data === undefined ? {} : { data: data.value }),
    ...(error === undefined ? {} : { error: error.value }),
    truncated: true,
  };
}
