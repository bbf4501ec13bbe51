import { ValidationError } from '../shared/errors';
import type { AppInfo, UiNode } from '../shared/ui-node';
import { notFoundError } from './actions/locate';
import type { Platform } from './platform/types';
import { textScore } from './ui/query';
import { findById } from './ui/tree-index';

/** Which app a command or tool means: a pid, an app name (fuzzy), or neither for the frontmost app. */
export interface AppTarget {
  pid?: number;
  app?: string;
}

/**
 * The target app: the pid, else the best name match, else the frontmost app. Shared by the CLI and
 * the MCP server, which is why it lives here and not in either: the server should not load the CLI.
 */
export async function findTargetApp(platform: Platform, target: AppTarget, listHint = "'deskpilot apps' lists them"): Promise<AppInfo> {
  const apps = await platform.apps.list();
  if (target.pid !== undefined) {
    const pid = target.pid;
    const app = apps.find((candidate) => candidate.pid === pid);
    if (app !== undefined) return app;
    if (!(await platform.apps.isAlive(pid))) throw new ValidationError(`no running app has pid ${pid}; ${listHint}`);
    return { pid, name: `pid ${pid}`, windows: [] };
  }
  if (target.app !== undefined) {
    const wanted = target.app;
    const ranked = apps
      .map((app) => ({ app, score: textScore(wanted, app.name) }))
      .filter((entry) => entry.score >= 0.7)
      .sort((a, b) => b.score - a.score);
    if (ranked[0] === undefined) {
      throw new ValidationError(`no running app matches '${wanted}'; running: ${apps.map((app) => app.name).join(', ') || 'none'}`);
    }
    return ranked[0].app;
  }
  const frontmost = await platform.apps.frontmost();
  if (frontmost === undefined) throw new ValidationError('no frontmost app; pass --pid or --app');
  return frontmost;
}

/** A subtree by id, or the whole tree without one. An unknown id is NODE_NOT_FOUND with the closest ids. */
export function subtreeOf(root: UiNode, rootId: string | undefined, pid: number): UiNode {
  if (rootId === undefined) return root;
  const found = findById(root, rootId);
  if (found === undefined) throw notFoundError(root, rootId, undefined, pid);
  return found;
}
