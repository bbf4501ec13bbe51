import { z } from 'zod';
import { DeskpilotError, ProcessExitedError, ValidationError } from '../../shared/errors';
import type { AppInfo, UiNode } from '../../shared/ui-node';
import { notFoundError } from '../actions/locate';
import type { Platform } from '../platform/types';
import { textScore } from '../ui/query';
import { findById } from '../ui/tree-index';
import type { AppAllowList } from './allow-list';
import { MAX_NAME_CHARS } from './bounds';

/** Every tool that reads or acts on an app may name it by one of these; without them it uses the target app. */
export const targetFields = {
  pid: z.number().int().positive().optional().describe('Process id of the app, from ui_apps; defaults to the app the user was in'),
  app: z
    .string()
    .min(1)
    .max(MAX_NAME_CHARS)
    .optional()
    .describe('App name from ui_apps, instead of pid (matched loosely; also the name its menu entry gives, e.g. Writer, Text Editor)'),
};

/** An app name matches when it is at least this close (see textScore): "mouse" finds Mousepad, not Notes. */
const MIN_APP_SCORE = 0.7;

/**
 * An ask or a tool aimed at Deskpilot's own window. Reading it would put the chat into its
 * own context, and acting on it would let a model click its own approval buttons.
 */
export class OwnAppError extends DeskpilotError {
  constructor(pid: number) {
    super('VALIDATION', `pid ${pid} is Deskpilot itself, which it never reads or acts on; pick another app (ui_apps shows them)`, {
      data: { pid, reason: 'own_app' },
    });
    this.name = 'OwnAppError';
  }
}

/** The rules a program resolves apps by: its default app, its own pids, its allow-list. */
export interface TargetScope {
  platform: Platform;
  targetPid: number | undefined;
  ownPids?: readonly number[];
  allowList?: AppAllowList;
}

export interface AppTarget {
  pid?: number | undefined;
  app?: string | undefined;
}

export function isOwnPid(scope: Pick<TargetScope, 'ownPids'>, pid: number): boolean {
  return scope.ownPids?.includes(pid) ?? false;
}

/** The running apps a program may see: never Deskpilot's own, and only allowed ones. */
export async function visibleApps(scope: TargetScope): Promise<AppInfo[]> {
  const apps = (await scope.platform.apps.list()).filter((app) => !isOwnPid(scope, app.pid));
  return scope.allowList === undefined ? apps : scope.allowList.filter(apps);
}

/**
 * How much each kind of name counts: the app's own name, then its windows, then what its
 * desktop files call it, then what kind of app they say it is (several apps are a "Text Editor").
 */
const NAME_WEIGHT = 1;
const TITLE_WEIGHT = 0.95;
const ALIAS_WEIGHT = 0.92;
const KIND_WEIGHT = 0.8;
/** Two apps this close for one name are both what the user may have meant: the answer is to ask, not to pick. */
const TIE_MARGIN = 0.01;

function appScore(app: AppInfo, wanted: string): number {
  const weighed = (texts: readonly string[] | undefined, weight: number): number[] => (texts ?? []).map((text) => textScore(wanted, text) * weight);
  return Math.max(
    textScore(wanted, app.name) * NAME_WEIGHT,
    ...weighed(
      app.windows.map((window) => window.title),
      TITLE_WEIGHT,
    ),
    ...weighed(app.aliases, ALIAS_WEIGHT),
    ...weighed(app.kinds, KIND_WEIGHT),
  );
}

/** A name that fits two running apps equally well. */
export class AmbiguousAppError extends ValidationError {
  constructor(wanted: string, apps: readonly AppInfo[]) {
    const listed = apps.map((app) => `pid ${app.pid} ${JSON.stringify(app.name)}`).join(', ');
    super(`'${wanted}' matches ${apps.length} running apps equally: ${listed}; give the pid or a longer name`, {
      data: { reason: 'ambiguous_app', pids: apps.map((app) => app.pid) },
    });
    this.name = 'AmbiguousAppError';
  }
}

/**
 * The best loose match for a name among apps, by app name, window title, or the names its
 * desktop files give it; undefined below MIN_APP_SCORE. Two apps (two pids) tied at the top
 * throw AmbiguousAppError: a guess would act on the wrong app.
 */
export function matchApp(apps: readonly AppInfo[], wanted: string): AppInfo | undefined {
  const scored = apps
    .map((app) => ({ app, score: appScore(app, wanted) }))
    .filter((each) => each.score >= MIN_APP_SCORE)
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  if (best === undefined) return undefined;
  const tied = scored.filter((each) => best.score - each.score < TIE_MARGIN);
  const pids = new Set(tied.map((each) => each.app.pid));
  if (pids.size > 1) throw new AmbiguousAppError(wanted, [...new Map(tied.map((each) => [each.app.pid, each.app])).values()]);
  return best.app;
}

/**
 * The one way every program finds the app a call means: the pid given, else the best name
 * match, else the scope's target app. Deskpilot's own pids are refused, an allow-list is
 * applied before anything else is said about a pid (so a client cannot probe which others
 * run), and a pid that is not running is PROCESS_EXITED, so the model looks the app up again
 * instead of fixing an argument.
 */
export async function resolveApp(scope: TargetScope, target: AppTarget): Promise<AppInfo> {
  const pid = target.pid ?? (target.app === undefined ? scope.targetPid : undefined);
  if (pid !== undefined) {
    if (isOwnPid(scope, pid)) throw new OwnAppError(pid);
    const apps = await scope.platform.apps.list();
    if (scope.allowList?.active) scope.allowList.checkPid(pid, apps);
    if (!(await scope.platform.apps.isAlive(pid))) throw new ProcessExitedError(pid);
    return apps.find((app) => app.pid === pid) ?? { pid, name: `pid ${pid}`, windows: [] };
  }
  if (target.app === undefined) throw new ValidationError("no target app: give 'pid' or 'app' (an app name); ui_apps lists the running apps");
  // Matched among the allowed apps only: a loose match cannot land on a hidden app, and the
  // message does not name apps the program hides.
  const apps = await visibleApps(scope);
  const app = matchApp(apps, target.app);
  if (app === undefined) {
    throw new ValidationError(`no running app matches '${target.app}'; running: ${apps.map((each) => each.name).join(', ') || 'none'}`);
  }
  return app;
}

/** A node by id. When it is not there, the engine's own NODE_NOT_FOUND, with the ids a typo away. */
export function nodeById(root: UiNode, id: string, pid: number): UiNode {
  const node = findById(root, id);
  if (node !== undefined) return node;
  throw notFoundError(root, id, undefined, pid);
}
