import { ValidationError } from '../../shared/errors';
import type { AppInfo } from '../../shared/ui-node';
import { identityText } from '../platform/identity-text';
import { AmbiguousAppError, matchApp, visibleApps, type TargetScope } from '../tools/target';
import type { Workflow } from './schema';

type WorkflowApp = Workflow['app'];

/** Linux cuts a process's comm to 15 bytes: "gnome-text-edit" is gnome-text-editor read where its exe was not readable. */
const COMM_CHARS = 15;

/** What a workflow records of the app it was made in: its name and whatever identity the platform listed. */
export function workflowApp(app: AppInfo | undefined): WorkflowApp {
  if (app === undefined) return {};
  const desktopId = identityText(app.desktopId);
  const processName = identityText(app.processName);
  const toolkit = identityText(app.toolkit);
  return {
    name: app.name.slice(0, 1000),
    ...(desktopId === undefined ? {} : { desktopId }),
    ...(processName === undefined ? {} : { processName }),
    ...(toolkit === undefined ? {} : { toolkit }),
  };
}

/** The same program, allowing for one side read from /proc/<pid>/comm (cut to 15 bytes). */
export function sameProcessName(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length === COMM_CHARS && long.startsWith(short);
}

/** One running app whose identity fits, undefined for none; two (two pids) is a halt, never a pick. */
function one(apps: readonly AppInfo[], described: string): AppInfo | undefined {
  const pids = new Set(apps.map((app) => app.pid));
  if (pids.size > 1) throw new AmbiguousAppError(described, [...new Map(apps.map((app) => [app.pid, app])).values()]);
  return apps[0];
}

/**
 * The running app a workflow was made in, by the identity it recorded, most certain first:
 * its desktop id (bundle id on macOS), then its program's name, then its name and the names
 * its desktop files give it (matchApp). Each rung that finds two apps throws
 * AmbiguousAppError. An app whose own desktop id is known and is not the recorded one is a
 * different app, and the later, looser rungs never take it. Undefined when the workflow names
 * nothing, or nothing running fits.
 */
export function matchWorkflowApp(apps: readonly AppInfo[], wanted: WorkflowApp): AppInfo | undefined {
  if (wanted.desktopId !== undefined) {
    const byId = one(
      apps.filter((app) => app.desktopId === wanted.desktopId),
      `desktop id ${wanted.desktopId}`,
    );
    if (byId !== undefined) return byId;
  }
  const others = apps.filter((app) => wanted.desktopId === undefined || app.desktopId === undefined);
  if (wanted.processName !== undefined) {
    const processName = wanted.processName;
    const byProcess = one(
      others.filter((app) => app.processName !== undefined && sameProcessName(app.processName, processName)),
      `program ${processName}`,
    );
    if (byProcess !== undefined) return byProcess;
  }
  return wanted.name === undefined || wanted.name === '' ? undefined : matchApp(others, wanted.name);
}

/** What a workflow's app is called in messages: its name, else its desktop id or program. */
export function describeWorkflowApp(wanted: WorkflowApp): string | undefined {
  return wanted.name ?? wanted.desktopId ?? wanted.processName;
}

/** Whether a given app (the one the user is in) is the one the workflow was made in, by the surest identity both sides know. */
export function isWorkflowApp(app: AppInfo, wanted: WorkflowApp): boolean {
  if (wanted.desktopId !== undefined && app.desktopId !== undefined) return app.desktopId === wanted.desktopId;
  if (wanted.processName !== undefined && app.processName !== undefined) return sameProcessName(app.processName, wanted.processName);
  if (wanted.name !== undefined) return app.name.toLowerCase() === wanted.name.toLowerCase();
  return true;
}

/**
 * The running app (among those the scope lets a program see) a workflow was made in;
 * undefined when the workflow records no app. A recorded app that is not running is an error
 * naming the running apps, as resolveApp's is.
 */
export async function resolveWorkflowApp(scope: TargetScope, wanted: WorkflowApp): Promise<AppInfo | undefined> {
  const described = describeWorkflowApp(wanted);
  if (described === undefined) return undefined;
  const apps = await visibleApps(scope);
  const found = matchWorkflowApp(apps, wanted);
  if (found !== undefined) return found;
  throw new ValidationError(
    `the app this workflow was made in (${JSON.stringify(described)}) is not running; running: ${apps.map((each) => each.name).join(', ') || 'none'}; start it, or name the app or pid to run it on`,
    { data: { reason: 'app_not_running' } },
  );
}
