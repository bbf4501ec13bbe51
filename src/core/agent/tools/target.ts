import { z } from 'zod';
import { DeskpilotError, ProcessExitedError } from '../../../shared/errors';
import type { UiNode } from '../../../shared/ui-node';
import { notFoundError } from '../../actions/locate';
import { findById } from '../../ui/tree-index';
import type { ToolContext } from './types';

export const pidField = z.number().int().positive().optional().describe('Process id; defaults to the app the user was in');

/**
 * An ask or a tool aimed at Deskpilot's own window. Reading it would put the chat into its
 * own context, and acting on it would let a model click its own approval buttons.
 */
export class OwnAppError extends DeskpilotError {
  constructor(pid: number) {
    super('VALIDATION', `pid ${pid} is Deskpilot itself, which it never reads or acts on; pick another app (list_apps shows them)`, {
      data: { pid, reason: 'own_app' },
    });
    this.name = 'OwnAppError';
  }
}

export function isOwnPid(context: Pick<ToolContext, 'ownPids'>, pid: number): boolean {
  return context.ownPids?.includes(pid) ?? false;
}

/** The pid a tool works on: the one asked for, else the context's target app. */
export async function resolvePid(context: ToolContext, pid?: number): Promise<number> {
  const resolved = pid ?? context.targetPid;
  if (resolved === undefined) {
    throw new DeskpilotError('VALIDATION', 'no target app; call list_apps, then focus_app or pass a pid');
  }
  if (isOwnPid(context, resolved)) throw new OwnAppError(resolved);
  if (!(await context.platform.apps.isAlive(resolved))) throw new ProcessExitedError(resolved);
  return resolved;
}

/** The target pid for tools that act. They act only on the target, so approvals per app mean something. */
export async function targetPid(context: ToolContext): Promise<number> {
  return resolvePid(context, undefined);
}

/**
 * A node by id. When it is not there, the engine's own NODE_NOT_FOUND: the same message and
 * candidates (ids a typo away) as a ui_action on that id, rather than names that merely
 * resemble the id string.
 */
export function nodeById(root: UiNode, id: string, pid: number): UiNode {
  const node = findById(root, id);
  if (node !== undefined) return node;
  throw notFoundError(root, id, undefined, pid);
}
