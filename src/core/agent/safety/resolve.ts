import { serializeError } from '../../../shared/errors';
import type { UiNode } from '../../../shared/ui-node';
import { resolveApp } from '../../tools/target';
import type { Tool, ToolContext, ToolResult } from '../../tools/types';
import { parseArguments } from '../tool-registry/registry';

/**
 * One tool call as it will run, resolved once: the gate judges this and the agent runs exactly
 * this. `args` are the tool's schema output in the tool's canonical spelling, with the app's
 * pid written in, so nothing the gate read (a padded id, a key alias, another app's name) can
 * be read differently by the code that acts.
 */
export interface ResolvedCall {
  args: Record<string, unknown>;
  /** The arguments to run the tool with, as JSON; undefined where the tool gets its own (a plugin's, an MCP server's). */
  runArguments: string | undefined;
  /** The app the call acts on, when it acts on one. */
  pid: number | undefined;
  app: string | undefined;
  /** That app's tree as the gate read it; undefined when the call names no app or the read failed. */
  tree: UiNode | undefined;
}

export type Resolution =
  | { kind: 'resolved'; call: ResolvedCall }
  /** The tool's schema refuses the arguments: the registry says why, and nothing runs. */
  | { kind: 'invalid' }
  /** The arguments name something that cannot be acted on: this is the call's result, and nothing runs. */
  | { kind: 'failed'; result: ToolResult };

function failed(error: unknown): Resolution {
  const serialized = serializeError(error);
  return { kind: 'failed', result: { success: false, message: `${serialized.code}: ${serialized.message}`, data: { error: serialized } } };
}

async function readTree(context: ToolContext, pid: number): Promise<UiNode | undefined> {
  try {
    return (await context.engine.observe(pid, { signal: context.signal })).root;
  } catch (error) {
    if (context.signal.aborted) throw error;
    return undefined; // The tool itself will report the dead app or missing tree.
  }
}

/**
 * Resolves a call: validates the arguments with the tool's own schema, puts them in its
 * canonical form, picks the app (pid, app name, or the target) the way the handler does, and
 * reads that app's tree. Any failure to resolve is the call's failure: a call the gate cannot
 * read is never let through unread.
 */
export async function resolveCall(definition: Tool, rawArguments: string, context: ToolContext): Promise<Resolution> {
  const parsed = definition.schema.safeParse(parseArguments(rawArguments).value);
  if (!parsed.success) return { kind: 'invalid' };
  const safety = definition.safety;
  let args = parsed.data as Record<string, unknown>;
  try {
    if (safety?.normalize !== undefined) args = safety.normalize(args as never) as Record<string, unknown>;
  } catch (error) {
    return failed(error);
  }
  const canonical = safety?.normalize !== undefined || safety?.target === 'app';
  if (safety?.target !== 'app') {
    const other = safety?.otherApp?.(args as never);
    const pid = other !== undefined ? other.pid : context.targetPid;
    const tree = pid === undefined || other !== undefined ? undefined : await readTree(context, pid);
    const app = other?.name;
    return { kind: 'resolved', call: { args, runArguments: canonical ? JSON.stringify(args) : undefined, pid, app, tree } };
  }
  try {
    const app = await resolveApp(context, { pid: args['pid'] as number | undefined, app: args['app'] as string | undefined });
    const { app: _name, ...rest } = args;
    const pinned = { ...rest, pid: app.pid };
    return {
      kind: 'resolved',
      call: { args: pinned, runArguments: JSON.stringify(pinned), pid: app.pid, app: app.name, tree: await readTree(context, app.pid) },
    };
  } catch (error) {
    if (context.signal.aborted) throw error;
    return failed(error);
  }
}
