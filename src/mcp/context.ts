import { ProcessExitedError, ValidationError } from '../shared/errors';
import type { AppInfo } from '../shared/ui-node';
import type { ActionEngine } from '../core/actions/engine';
import type { Platform } from '../core/platform/types';
import { findTargetApp } from '../core/targets';
import type { AppAllowList } from './allow-list';
import type { McpOptions } from './options';

export interface Core {
  platform: Platform;
  engine: ActionEngine;
}

/** What every tool may use. One context lives as long as the server. */
export interface ToolContext {
  /** The platform and engine, made on first use: a server without a desktop still starts and answers each call with the reason. */
  core(): Promise<Core>;
  options: McpOptions;
  allowList: AppAllowList;
}

export interface TargetArgs {
  pid?: number | undefined;
  app?: string | undefined;
}

/**
 * The app a tool call names, by pid or by app name. MCP clients are not in the user's app,
 * so there is no frontmost fallback: the model says which app, after ui_apps.
 */
export async function resolveTarget(context: ToolContext, target: TargetArgs): Promise<{ core: Core; app: AppInfo }> {
  if (target.pid === undefined && target.app === undefined) {
    throw new ValidationError("give 'pid' or 'app' (an app name); ui_apps lists the running apps");
  }
  const core = await context.core();
  if (target.pid !== undefined) {
    // The allow-list first: were a dead pid checked before it, PROCESS_EXITED against PERMISSION_DENIED
    // would tell a client which disallowed pids exist.
    if (context.allowList.active) context.allowList.checkPid(target.pid, await core.platform.apps.list());
    // A dead pid is its own error, so the model knows to look the app up again rather than fix an argument.
    if (!(await core.platform.apps.isAlive(target.pid))) throw new ProcessExitedError(target.pid);
  }
  // A name is matched among the allowed apps only: a loose match cannot land on another app, and the
  // "no app matches" message does not name apps the server hides. A pid the client already knows is looked up as is.
  const platform = target.pid === undefined ? allowedOnly(core.platform, context.allowList) : core.platform;
  const app = await findTargetApp(
    platform,
    { ...(target.pid === undefined ? {} : { pid: target.pid }), ...(target.app === undefined ? {} : { app: target.app }) },
    'ui_apps lists them',
  );
  context.allowList.check(app);
  return { core, app };
}

function allowedOnly(platform: Platform, allowList: AppAllowList): Platform {
  return { ...platform, apps: { ...platform.apps, list: async () => allowList.filter(await platform.apps.list()) } };
}
