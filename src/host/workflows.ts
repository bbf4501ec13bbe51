import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ValidationError, serializeError } from '../shared/errors';
import type { HostReply } from '../shared/host-service';
import type { ChatEntry } from '../shared/transcript';
import type { WorkflowEvent, WorkflowParameterInfo, WorkflowRunRequest, WorkflowSaveRequest, WorkflowSummary } from '../shared/workflow-ipc';
import type { ApprovalDecision, ApprovalRequest } from '../core/agent/safety';
import { ActionEngine } from '../core/actions/engine';
import type { Clock } from '../core/clock';
import type { Platform } from '../core/platform/types';
import { resolveApp } from '../core/tools/target';
import { encodePng } from '../core/image/png';
import { isWorkflowApp, resolveWorkflowApp, workflowApp } from '../core/workflows/app-identity';
import { describeStep, keepParameters, suggestFileName } from '../core/workflows/draft';
import { findWorkflow, listWorkflows, type SavedWorkflow } from '../core/workflows/folder';
import { workflowFromActions } from '../core/workflows/from-actions';
import { formatWorkflow, parseWorkflow } from '../core/workflows/load';
import { resolveValues } from '../core/workflows/params';
import type { RecordedAction, RecordingEngine } from '../core/workflows/recording-engine';
import { runWorkflow } from '../core/workflows/runner';
import type { Workflow } from '../core/workflows/schema';
import { workflowRisk, workflowTool } from '../core/workflows/tools';
import type { Tool } from '../core/tools/types';

/** Completed asks whose actions stay ready for "Save as workflow": the last few, not the whole session. */
const KEPT_ASKS = 5;

export interface HostWorkflowsOptions {
  platform: Platform;
  /** The host's engine: it records every verified action, so any completed ask can become a workflow. */
  engine: RecordingEngine;
  /** The workflows folder, read at each call (DESKPILOT_WORKFLOWS_DIR may change). */
  dir: () => string;
  post: (event: WorkflowEvent) => void;
  /** Waits for the user's answer to approval `id`, through the host's one approvals map. */
  awaitApproval: (id: string) => Promise<ApprovalDecision>;
  ownPids: readonly number[];
  /** True while the agent is on an ask: a run then waits its turn rather than act alongside it. */
  busy?: () => boolean;
  clock?: Clock;
  /** Test seam: where halt screenshots go (a fresh private temp folder by default). */
  screenshotDir?: () => Promise<string>;
}

interface AskRecord {
  text: string;
  pid: number;
  actions: RecordedAction[];
}

function summary(saved: SavedWorkflow): WorkflowSummary {
  const { workflow } = saved;
  return {
    name: saved.name,
    title: workflow.name,
    ...(workflow.description === undefined ? {} : { description: workflow.description }),
    ...(workflow.app.name === undefined ? {} : { app: workflow.app.name }),
    steps: workflow.steps.length,
    parameters: parametersOf(workflow),
    risky: workflowRisk(workflow) !== undefined,
  };
}

function parametersOf(workflow: Workflow): WorkflowParameterInfo[] {
  return Object.entries(workflow.parameters ?? {}).map(([name, parameter]) => ({
    name,
    ...(parameter.description === undefined ? {} : { description: parameter.description }),
    ...(parameter.default === undefined || parameter.secret === true ? {} : { default: parameter.default }),
    secret: parameter.secret === true,
  }));
}

/**
 * The Workflows view's side of the host: saved workflows listed and replayed (one run at a time,
 * its progress as events, risky steps asked through the window's approvals), and completed asks
 * turned into workflows from the actions the recording engine verified.
 */
export class HostWorkflows {
  private readonly asks = new Map<string, AskRecord>();
  private current: { askId: string; text: string; pid: number; from: number } | undefined;
  private run: AbortController | undefined;
  private runs = 0;
  /** Runs act through an engine of their own, so their actions never land among an ask's recorded ones. */
  private readonly runner: ActionEngine;

  constructor(private readonly options: HostWorkflowsOptions) {
    this.runner = new ActionEngine({ platform: options.platform, ...(options.clock === undefined ? {} : { clock: options.clock }) });
  }

  /** An ask started: its actions are the ones the engine records from now on. */
  askStarted(askId: string, text: string, pid: number): void {
    // Earlier actions belong to asks already kept (or never to be saved): drop them, so memory stays bounded.
    this.options.engine.actions.splice(0);
    this.current = { askId, text, pid, from: 0 };
  }

  /** An ask ended; a completed one with verified actions can be saved. */
  askEnded(askId: string, completed: boolean): void {
    const current = this.current;
    if (current?.askId !== askId) return;
    this.current = undefined;
    const actions = this.options.engine.actions.splice(0).filter((action) => action.pid === current.pid);
    if (!completed || actions.length === 0) return;
    this.asks.set(askId, { text: current.text, pid: current.pid, actions });
    for (const old of [...this.asks.keys()].slice(0, Math.max(0, this.asks.size - KEPT_ASKS))) this.asks.delete(old);
  }

  /** The saved workflows as the agent's tools (`workflow_<name>`), as `ask` offers them: read on every ask. */
  async tools(log: (text: string) => void): Promise<Tool[]> {
    const saved = await listWorkflows(this.options.dir());
    const tools: Tool[] = [];
    for (const each of saved) {
      try {
        tools.push(workflowTool(each));
      } catch (error) {
        log(`skipped workflow ${each.name}: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
      }
    }
    return tools;
  }

  async list(): Promise<HostReply<'workflowList'>> {
    const dir = this.options.dir();
    const skipped: { file: string; reason: string }[] = [];
    const saved = await listWorkflows(dir, (file, reason) => skipped.push({ file: path.basename(file), reason: reason.slice(0, 300) }));
    return { workflows: saved.map(summary), folder: dir, skipped };
  }

  /** Starts a run and answers at once; a bad name or missing value is refused before anything runs. */
  async start(request: WorkflowRunRequest & { pid?: number | undefined }): Promise<HostReply<'workflowRun'>> {
    if (this.run !== undefined) throw new ValidationError('a workflow is already running; stop it first');
    if (this.options.busy?.() === true) throw new ValidationError('Deskpilot is working on a question; wait for it or stop it, then run the workflow');
    const saved = await findWorkflow(this.options.dir(), request.name);
    const values = resolveValues(saved.workflow, request.vars);
    const pid = await this.pidFor(saved.workflow, request.pid);
    this.runs += 1;
    const runId = `run-${this.runs}`;
    const controller = new AbortController();
    this.run = controller;
    const dryRun = request.dryRun === true;
    this.options.post({ type: 'started', runId, name: saved.name, dryRun, steps: saved.workflow.steps.length });
    let approvals = 0;
    const decide = (approval: ApprovalRequest): Promise<ApprovalDecision> => {
      approvals += 1;
      const id = `${runId}-approval-${approvals}`;
      const entry: Extract<ChatEntry, { kind: 'approval' }> = {
        kind: 'approval',
        id,
        askId: runId,
        tool: approval.tool,
        summary: approval.summary,
        reason: approval.reason,
        why: approval.why,
        plan: approval.plan,
        ...(approval.app === undefined ? {} : { app: approval.app }),
      };
      // A stop answers deny, so a run waiting on a question ends too.
      const answer = new Promise<ApprovalDecision>((resolve) => {
        void this.options.awaitApproval(id).then(resolve);
        controller.signal.addEventListener('abort', () => resolve('deny'), { once: true });
      });
      this.options.post({ type: 'approval', runId, approval: entry });
      return answer;
    };
    void runWorkflow(saved.workflow, {
      engine: this.runner,
      platform: this.options.platform,
      pid,
      values,
      given: request.vars,
      trusted: request.trusted === true,
      dryRun,
      signal: controller.signal,
      decide,
      screenshot: (target) => this.screenshot(target),
      onStep: (step) => this.options.post({ type: 'step', runId, step }),
      ...(this.options.clock === undefined ? {} : { clock: this.options.clock }),
    })
      .then(
        (report) => this.options.post({ type: 'finished', runId, report }),
        // A stop is not a failure: the run ends where it was.
        (error: unknown) => this.options.post(controller.signal.aborted ? { type: 'stopped', runId } : { type: 'failed', runId, error: serializeError(error) }),
      )
      .finally(() => {
        if (this.run === controller) this.run = undefined;
      });
    return { runId };
  }

  stop(): void {
    this.run?.abort();
  }

  async draft(askId: string): Promise<HostReply<'workflowDraft'>> {
    const built = await this.build(askId, 'workflow');
    return { askId, name: suggestFileName(this.recorded(askId).text), steps: built.steps.map(describeStep), parameters: parametersOf(built) };
  }

  /** Writes the ask's workflow into the folder; an existing file is never overwritten. */
  async save(request: WorkflowSaveRequest): Promise<HostReply<'workflowSave'>> {
    const built = keepParameters(await this.build(request.askId, request.name), request.parameters);
    // Through the validation every loaded file passes, so what is written can be run.
    const text = formatWorkflow(parseWorkflow(formatWorkflow(built), request.name));
    const dir = this.options.dir();
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `${request.name}.json`);
    try {
      await writeFile(file, text, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new ValidationError(`a workflow named '${request.name}' exists already; choose another name`);
      throw error;
    }
    return summary({ name: request.name, file, workflow: parseWorkflow(text, request.name) });
  }

  private recorded(askId: string): AskRecord {
    const record = this.asks.get(askId);
    if (record === undefined) throw new ValidationError('that task has no verified actions to save (only the last few completed tasks can be saved)');
    return record;
  }

  private async build(askId: string, name: string): Promise<Workflow> {
    const record = this.recorded(askId);
    // The app's name as the listing gives it, as `ask --save-workflow` writes it.
    const app = (await this.options.platform.apps.list().catch(() => [])).find((each) => each.pid === record.pid);
    return workflowFromActions(record.actions, { name, question: record.text, app: workflowApp(app) });
  }

  /**
   * The app a run acts on: the window's target when it is the app the workflow was made in (or
   * the workflow names none), else the running app the workflow's identity finds (desktop id,
   * program, then name).
   */
  private async pidFor(workflow: Workflow, target: number | undefined): Promise<number> {
    const scope = { platform: this.options.platform, targetPid: undefined, ownPids: this.options.ownPids };
    if (target !== undefined) {
      const app = await resolveApp(scope, { pid: target });
      if (isWorkflowApp(app, workflow.app)) return app.pid;
    }
    const found = await resolveWorkflowApp(scope, workflow.app);
    if (found !== undefined) return found.pid;
    throw new ValidationError('no app to run the workflow on: switch to it, then open Deskpilot again');
  }

  /** The window's pixels at a halt (password fields black), in a fresh private folder. */
  private async screenshot(pid: number): Promise<string | undefined> {
    const vision = this.options.platform.vision;
    if (vision === undefined) return undefined;
    const image = await vision.capture(pid);
    const dir = await (this.options.screenshotDir?.() ?? mkdtemp(path.join(tmpdir(), 'deskpilot-halt-')));
    const file = path.join(dir, `halt-${pid}.png`);
    await writeFile(file, encodePng(image), { mode: 0o600 });
    return file;
  }
}
