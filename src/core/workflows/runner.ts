import type { UiActionResult } from '../../shared/ui-action';
import type { ActionEngine } from '../actions/engine';
import type { ApprovalDecider } from '../agent/safety';
import { systemClock, type Clock } from '../clock';
import type { Platform } from '../platform/types';
import type { ToolContext } from '../tools/types';
import type { BuiltTree } from '../ui/ids';
import { findById } from '../ui/tree-index';
import { missingEffect } from './effect';
import { describeLocator } from './locator';
import { askingAbout } from '../actions/keep-devices';
import { runAction } from '../actions/run-action';
import { fillStep } from './params';
import type { HaltCode, HaltReport, RunReport, StepReport } from './report';
import type { Refusal, Resolution } from './resolve';
import type { Locator } from './schema';
import type { Workflow, WorkflowStep } from './schema';

type ActingStep = Exclude<WorkflowStep, { action: 'wait_window' }>;
import { StepGate } from './step-gate';
import { findTarget, observeWindows, waitFor, windowsIn, type Found, type WaitTiming } from './target-wait';
import { describeWindow, windowFits } from './window';

export const DEFAULT_WAIT_MS = 5_000;
export const DEFAULT_POLL_MS = 100;

export interface RunOptions {
  engine: ActionEngine;
  platform: Platform;
  pid: number;
  /** Every parameter's value (resolveValues). */
  values: Readonly<Record<string, string>>;
  /** The values the user gave for this run: only these may go into secret fields. */
  given?: Readonly<Record<string, string>>;
  clock?: Clock;
  signal?: AbortSignal;
  /** Risky steps run without asking; secret fields stay guarded. */
  trusted?: boolean;
  decide?: ApprovalDecider;
  dryRun?: boolean;
  /** How long a step waits for its target and for its effect, unless the step says. */
  waitMs?: number;
  pollMs?: number;
  /** Keeps evidence at a halt; returns where the screenshot went. */
  screenshot?: (pid: number) => Promise<string | undefined>;
  onStep?: (step: StepReport) => void;
}

class Halt extends Error {
  constructor(
    readonly code: HaltCode,
    message: string,
    readonly lookedFor?: string,
    readonly candidates: Refusal[] = [],
  ) {
    super(message);
  }
}

function resolutionHalt(resolution: Exclude<Resolution, { kind: 'found' }>, lookedFor: string): Halt {
  if (resolution.kind === 'ambiguous') {
    return new Halt(
      'ambiguous',
      `${resolution.candidates.length} elements fit ${lookedFor} equally; a workflow never picks between them`,
      lookedFor,
      resolution.candidates,
    );
  }
  return new Halt('not_found', `no element fits ${lookedFor}`, lookedFor, resolution.candidates);
}

/**
 * The ui_action request for a step whose targets were found. Unless the step says, the engine
 * looks for the effect at once and then at each of the app's events (settleMs 0) instead of
 * after a fixed pause: replay checks the recorded effect itself, so an early look costs nothing.
 */
function requestFor(step: WorkflowStep, id: string | undefined, toId: string | undefined): Record<string, unknown> {
  const settle = { settleMs: step.settleMs ?? 0 };
  const at = id === undefined ? {} : { id };
  switch (step.action) {
    case 'click':
      return { action: 'click', ...at, ...settle };
    case 'set_value':
      return { action: 'set_value', ...at, value: step.value, ...settle };
    case 'type':
      return { action: 'type', ...at, text: step.text, ...settle };
    case 'key':
      return { action: 'key', ...at, key: step.key, ...(step.modifiers === undefined ? {} : { modifiers: step.modifiers }), ...settle };
    case 'scroll':
      return {
        action: 'scroll',
        ...at,
        ...(step.direction === undefined ? {} : { direction: step.direction }),
        ...(step.amount === undefined ? {} : { amount: step.amount }),
        ...settle,
      };
    case 'drag':
      return { action: 'drag', ...at, toId, ...settle };
    default:
      return { action: step.action };
  }
}

/**
 * Replays a workflow without a model. Each step waits (within a bound, by the injected clock)
 * for its target through the resolution ladder, passes the safety rules, acts through the
 * engine, then waits for its recorded effect. Anything short of that halts: the report says
 * which step, what it looked for, each candidate and why it was refused, and nothing after runs.
 */
export async function runWorkflow(workflow: Workflow, options: RunOptions): Promise<RunReport> {
  const clock = options.clock ?? systemClock;
  const signal = options.signal ?? new AbortController().signal;
  const started = clock.now();
  const context: ToolContext = { engine: options.engine, platform: listingOnce(options.platform), targetPid: options.pid, signal, log: () => undefined, clock };
  const gate = new StepGate(options.trusted === true, Object.values(options.given ?? {}).join('\n'), options.decide);
  const steps: StepReport[] = [];
  const report = (step: StepReport): void => {
    steps.push(step);
    options.onStep?.(step);
  };
  for (const [index, raw] of workflow.steps.entries()) {
    const step = fillStep(raw, options.values);
    const base: Omit<StepReport, 'status'> = { step: index + 1, action: step.action, ...(step.intent === undefined ? {} : { intent: step.intent }) };
    const stepStart = clock.now();
    if (options.dryRun === true) {
      report(await planStep(step, base, options));
      continue;
    }
    try {
      signal.throwIfAborted();
      const outcome = await runStep(step, options, clock, context, gate);
      report({ ...base, status: 'ok', ...outcome, ms: Math.round(clock.now() - stepStart) });
    } catch (error) {
      if (!(error instanceof Halt)) throw error;
      report({ ...base, status: 'halted', ...(error.lookedFor === undefined ? {} : { target: error.lookedFor }), ms: Math.round(clock.now() - stepStart) });
      const screenshot = await options.screenshot?.(options.pid).catch(() => undefined);
      const halt: HaltReport = {
        step: index + 1,
        action: step.action,
        ...(step.intent === undefined ? {} : { intent: step.intent }),
        code: error.code,
        message: error.message,
        ...(error.lookedFor === undefined ? {} : { lookedFor: error.lookedFor }),
        candidates: error.candidates,
        ...(screenshot === undefined ? {} : { screenshot }),
      };
      for (const [later, rest] of workflow.steps.slice(index + 1).entries()) {
        steps.push({ step: index + later + 2, action: rest.action, status: 'not_run', ...(rest.intent === undefined ? {} : { intent: rest.intent }) });
      }
      return { workflow: workflow.name, status: 'halted', steps, halt, ms: Math.round(clock.now() - started) };
    }
  }
  return { workflow: workflow.name, status: options.dryRun === true ? 'planned' : 'completed', steps, ms: Math.round(clock.now() - started) };
}

async function planStep(step: WorkflowStep, base: Omit<StepReport, 'status'>, options: RunOptions): Promise<StepReport> {
  if (step.action === 'wait_window') return { ...base, status: 'planned', target: describeWindow(step.window) };
  if (step.target === undefined) return { ...base, status: 'planned' };
  const target = describeLocator(step.target);
  const found = await findTarget(options, step.target, { ocr: false });
  if (found.resolution.kind === 'found') return { ...base, status: 'planned', target, rung: found.resolution.rung, nodeId: found.resolution.node.id };
  const note =
    found.resolution.kind === 'ambiguous'
      ? `${found.resolution.candidates.length} candidates fit: it would halt`
      : 'not there now (an earlier step may bring it)';
  return { ...base, status: 'unresolved', target, note };
}

/**
 * The platform as a run's safety gate sees it: the running apps listed once for the whole run
 * (the gate names the run's app from the list before every step; the app is the same app
 * throughout, and whether it is still running is asked every step all the same). A failed
 * listing is not kept, so the next step asks again.
 */
function listingOnce(platform: Platform): Platform {
  let listed: ReturnType<Platform['apps']['list']> | undefined;
  const apps = Object.create(platform.apps) as Platform['apps'];
  apps.list = () =>
    (listed ??= platform.apps.list().catch((error: unknown) => {
      listed = undefined;
      throw error;
    }));
  const served = Object.create(platform) as Platform;
  Object.defineProperty(served, 'apps', { value: apps });
  return served;
}

/**
 * The engine as the safety gate sees it for one step: its read of the app is the tree the
 * step's target was just found in, so the gate judges the node replay resolved, and the step
 * costs one read of the app instead of two. Every other call goes to the engine itself.
 */
function servingTree(engine: ActionEngine, pid: number, tree: BuiltTree): ActionEngine {
  const served = Object.create(engine) as ActionEngine;
  served.observe = async (at, treeOptions = {}) => {
    const plain = at === pid && treeOptions.fresh !== true && treeOptions.maxNodes === undefined && treeOptions.maxDepth === undefined;
    return plain && (treeOptions.bounds ?? 'none') === 'none' ? tree : engine.observe(at, treeOptions);
  };
  return served;
}

async function runStep(step: WorkflowStep, options: RunOptions, clock: Clock, context: ToolContext, gate: StepGate): Promise<Partial<StepReport>> {
  const waitMs = step.timeoutMs ?? options.waitMs ?? DEFAULT_WAIT_MS;
  const nextEvent = options.platform.accessibility.nextEvent?.bind(options.platform.accessibility);
  const timing: Timing = {
    clock,
    waitMs,
    pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    signal: context.signal,
    ...(nextEvent === undefined ? {} : { nextEvent: (signal: AbortSignal) => nextEvent(options.pid, signal) }),
  };
  if (step.action === 'wait_window') {
    const wanted = step.window;
    const ok = await waitFor(timing, async () => {
      const windows = await observeWindows(options);
      const present = windows.some((window) => windowFits(window, wanted));
      return step.gone === true ? !present : present;
    });
    if (!ok)
      throw new Halt(
        'window_missing',
        `${describeWindow(wanted)} did not ${step.gone === true ? 'close' : 'appear'} within ${waitMs} ms`,
        describeWindow(wanted),
      );
    return { target: describeWindow(wanted) };
  }
  const target = step.target === undefined ? undefined : await waitForTarget(step.target, step.action === 'click', options, timing);
  const destination = step.action === 'drag' ? await waitForTarget(step.to, false, options, timing) : undefined;
  const found =
    target === undefined ? {} : { target: describeLocator(step.target as NonNullable<typeof step.target>), rung: target.rung, nodeId: target.node.id };
  if (step.action === 'wait') {
    if (step.expect !== undefined) await awaitEffect(step, target, undefined, options, timing);
    return found;
  }
  const request = requestFor(step, target?.node.id, destination?.node.id);
  // A tree read by OCR is not the one the target was found in; the gate then reads for itself.
  const judged =
    target === undefined || target.rung === 'ocr' || destination !== undefined
      ? context
      : { ...context, engine: servingTree(options.engine, options.pid, target.tree) };
  const verdict = await gate.check(request, judged);
  if (!verdict.ok) throw new Halt(verdict.code, verdict.message, found.target);
  const asker = gate.inputAsker(context);
  // As every program runs a ui_action: a set_value on a combo box chooses its item (run-action.ts).
  const act = (): Promise<UiActionResult> => runAction(options.engine, options.pid, request, context.signal);
  const result = asker === undefined ? await act() : await askingAbout(asker, act);
  if (!result.success) throw new Halt(failedCode(result), result.error?.message ?? `${step.action} failed`, found.target);
  if (step.expect !== undefined) await awaitEffect(step, target, result, options, timing);
  else if (!result.changed && step.action !== 'scroll' && step.action !== 'key') {
    // A secret field's value is never read, so nothing can show the text arrived: the report says it went unchecked.
    if (target?.node.states.secret === true) return { ...found, note: 'secret field: its value is never read, so this step is not verified' };
    throw new Halt('effect_missing', `${step.action} ran but nothing observable changed`, found.target);
  }
  return found;
}

interface Timing extends WaitTiming {
  signal: AbortSignal;
}

async function waitForTarget(locator: Locator, ocr: boolean, options: RunOptions, timing: Timing): Promise<Found> {
  const lookedFor = describeLocator(locator);
  let last: { resolution: Resolution; tree: BuiltTree } | undefined;
  await waitFor(timing, async () => {
    last = await findTarget(options, locator, { ocr: false });
    // A tie is not waited out: two matches now is a halt now.
    return last.resolution.kind === 'ambiguous' || (last.resolution.kind === 'found' && last.resolution.node.states.enabled);
  });
  // OCR is the last rung and the slowest: tried once, after the tree had its whole wait.
  if (ocr && last?.resolution.kind === 'missing') last = await findTarget(options, locator, { ocr: true });
  const { resolution, tree } = last as { resolution: Resolution; tree: BuiltTree };
  if (resolution.kind !== 'found') throw resolutionHalt(resolution, lookedFor);
  if (!resolution.node.states.enabled) {
    throw new Halt('disabled', `the element was found and stayed disabled for ${timing.waitMs} ms`, lookedFor, [
      { id: resolution.node.id, role: resolution.node.role, name: resolution.node.name, reason: 'disabled' },
    ]);
  }
  return { node: resolution.node, rung: resolution.rung, tree };
}

async function awaitEffect(
  step: ActingStep,
  target: Found | undefined,
  result: UiActionResult | undefined,
  options: RunOptions,
  timing: Timing,
): Promise<void> {
  const expect = step.expect;
  if (expect === undefined) return;
  // The engine has just re-read the target: a value or state effect shown there needs no other read of the app.
  const local = expect.windowOpened === undefined && expect.windowClosed === undefined && expect.gone === undefined && expect.appExited === undefined;
  if (local && result?.nodeAfter != null && missingEffect(expect, { node: result.nodeAfter, windows: [], alive: true, changed: result.changed }) === undefined)
    return;
  let missing: string | undefined;
  const seen = await waitFor(timing, async () => {
    const alive = await options.platform.apps.isAlive(options.pid);
    if (!alive) {
      missing = missingEffect(expect, { node: undefined, windows: [], alive, changed: result?.changed ?? false });
      return true;
    }
    const tree = await options.engine.observe(options.pid, { bounds: 'none', fresh: true, signal: timing.signal });
    const node = target === undefined ? undefined : findById(tree.root, target.node.id);
    missing = missingEffect(expect, { node, windows: windowsIn(tree.root), alive, changed: result?.changed ?? false });
    return missing === undefined;
  });
  if (!seen || missing !== undefined) {
    throw new Halt(
      'effect_missing',
      `the expected effect did not appear within ${timing.waitMs} ms: ${missing ?? 'unknown'}`,
      step.target === undefined ? undefined : describeLocator(step.target),
    );
  }
}

/** Why an action's failure halts the run; input the user kept (keepDevices) is a denial, as a risky step's is. */
function failedCode(result: UiActionResult): HaltCode {
  const error = result.error;
  if (error?.code === 'PROCESS_EXITED') return 'app_exited';
  if (error?.code === 'PERMISSION_DENIED' && error.data?.['reason'] === 'keep-devices') return error.data['asked'] === true ? 'denied' : 'approval_needed';
  return 'action_failed';
}
