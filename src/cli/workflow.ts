import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ValidationError } from '../shared/errors';
import { encodePng } from '../core/image/png';
import { resolveWorkflowApp } from '../core/workflows/app-identity';
import { loadWorkflow } from '../core/workflows/load';
import { parseVars, resolveValues } from '../core/workflows/params';
import { formatReport, runStoppedShort, type RunReport } from '../core/workflows/report';
import { runWorkflow } from '../core/workflows/runner';
import type { Workflow } from '../core/workflows/schema';
import { terminalDecider } from './approval';
import type { CommandContext } from './context';

/** A run that stopped at a step: the report is on stdout. */
export const HALTED_EXIT = 3;
/** After Ctrl-C, as shells report a SIGINT death (the same as ask's). */
const INTERRUPTED_EXIT = 130;

/** The pid from --pid or --app (else the frontmost app), as every command resolves it. */
export type TargetPid = () => Promise<number>;

function list(value: CommandContext['values'][string]): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [String(value)];
}

/** The app a run acts on: --pid or --app, else the app the workflow was made in (by its identity), else the frontmost app. */
async function appFor(context: CommandContext, workflow: Workflow, targetPid: TargetPid): Promise<number> {
  if (context.values['pid'] !== undefined || context.values['app'] !== undefined) return targetPid();
  const app = await resolveWorkflowApp({ platform: context.platform, targetPid: undefined }, workflow.app);
  return app === undefined ? targetPid() : app.pid;
}

/** Writes the window's pixels (password fields black) at a halt, to a fresh private folder. */
function screenshotter(context: CommandContext): ((pid: number) => Promise<string | undefined>) | undefined {
  const vision = context.platform.vision;
  if (vision === undefined) return undefined;
  return async (pid) => {
    const image = await vision.capture(pid);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-halt-')), `halt-${pid}.png`);
    writeFileSync(file, encodePng(image), { mode: 0o600 });
    return file;
  };
}

function exitFor(report: RunReport): number {
  return runStoppedShort(report) ? HALTED_EXIT : 0;
}

/**
 * `deskpilot workflow run FILE`: replays a workflow without a model. Exit 0 when every step ran
 * and was verified (with --dry-run, when every step resolves now), 3 when it halted (the report
 * on stdout; --json for programs), 2 for usage and setup errors, 130 on Ctrl-C.
 */
async function run(context: CommandContext, file: string, targetPid: TargetPid): Promise<number> {
  refuseIdleOptions(context);
  const workflow = await loadWorkflow(file);
  const given = parseVars(list(context.values['var']));
  const values = resolveValues(workflow, given);
  const pid = await appFor(context, workflow, targetPid);
  const json = context.values['json'] === true;
  const trusted = context.values['yes'] === true;
  const controller = new AbortController();
  const remove = context.io.onInterrupt?.(() => controller.abort()) ?? onSigint(() => controller.abort());
  const screenshot = screenshotter(context);
  try {
    const report = await runWorkflow(workflow, {
      engine: context.engine,
      platform: context.platform,
      pid,
      values,
      given,
      trusted,
      signal: controller.signal,
      dryRun: context.values['dry-run'] === true,
      ...(trusted ? {} : { decide: terminalDecider(context.io) }),
      ...(screenshot === undefined ? {} : { screenshot }),
      ...(json ? {} : { onStep: (step) => context.io.stderr(`step ${step.step} ${step.action}: ${step.status}`) }),
    });
    const proposal =
      report.halt !== undefined && context.values['recover'] === true
        ? await (await import('./workflow-recover')).recover(context, workflow, report.halt, pid)
        : undefined;
    context.io.stdout(json ? JSON.stringify(proposal === undefined ? report : { ...report, proposal }, null, 2) : formatReport(report));
    return exitFor(report);
  } catch (error) {
    if (controller.signal.aborted) {
      context.io.stderr('deskpilot: stopped');
      return INTERRUPTED_EXIT;
    }
    throw error;
  } finally {
    remove();
  }
}

/** Options a run would silently ignore are refused before anything runs: a user who typed them expects them to do something. */
function refuseIdleOptions(context: CommandContext): void {
  const { values } = context;
  if (values['save-healed'] !== undefined && values['recover'] !== true)
    throw new ValidationError('--save-healed FILE writes what --recover proposes; add --recover (it asks the model only when a step halts)');
  if (values['recover'] === true && values['dry-run'] === true)
    throw new ValidationError('--recover heals a step that halted while running; --dry-run acts on nothing and never halts, so use one or the other');
  if (values['out'] !== undefined)
    throw new ValidationError('--out is for workflow record; workflow run writes nothing (--save-healed FILE keeps a healed copy)');
}

function onSigint(handler: () => void): () => void {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/** `deskpilot workflow run FILE | record`. */
export async function workflowCommand(context: CommandContext, targetPid: TargetPid): Promise<number> {
  const [verb, file, extra] = context.positionals;
  if (verb === 'run') {
    if (file === undefined || extra !== undefined)
      throw new ValidationError('workflow run needs exactly one FILE, e.g. deskpilot workflow run weekly.json --var name=Ada');
    return run(context, file, targetPid);
  }
  if (verb === 'record') {
    if (file !== undefined) throw new ValidationError('workflow record takes no FILE; give it as --out FILE');
    const { record } = await import('./workflow-record');
    return record(context, targetPid);
  }
  throw new ValidationError(`workflow needs 'run FILE' or 'record', got '${verb ?? ''}'`);
}
