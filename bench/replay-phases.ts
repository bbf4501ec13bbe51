/**
 * Where a replay step's time goes, for bench:replay: the app's own settling (the engine's
 * settle, from the action sent to its effect seen, events or polls) against replay's overhead
 * (everything else: the locator's reads, the safety gate's read, the engine's own resolve read,
 * the action call, the waits between polls and the verification reads). Instrumented here by
 * wrapping the engine's methods, so neither the code measured nor its tests carry timers.
 */
import type { ActionEngine } from '../src/core/actions/engine';
import type { StepReport } from '../src/core/workflows/report';
import { StepGate } from '../src/core/workflows/step-gate';
import { median } from './stats';

interface Counters {
  /** Time inside the engine's settle (the app settling): not overhead. */
  settleMs: number;
  /** Reads (observe) outside the engine's run: replay's locator, gate and verification reads. */
  replayReads: number;
  replayReadMs: number;
  /** Reads inside run() but outside settle: the engine's resolve read. */
  engineReads: number;
  engineReadMs: number;
  /** run() minus its reads and its settle: the action call itself (and the engine's bookkeeping). */
  actMs: number;
  runMs: number;
  /** The safety gate's judgement of the step (its own reads, if any, are counted as replay reads too). */
  gateMs: number;
}

const zero = (): Counters => ({ settleMs: 0, replayReads: 0, replayReadMs: 0, engineReads: 0, engineReadMs: 0, actMs: 0, runMs: 0, gateMs: 0 });

export interface StepPhases extends Counters {
  action: string;
  stepMs: number;
  overheadMs: number;
}

export interface PhaseMeter {
  /** Call just before a run: reads made between runs (an app's launch) are not a step's. */
  begin: () => void;
  /** Pass as the runner's onStep: closes the step's counters. */
  onStep: (step: StepReport) => void;
  /** Steps that ran ('ok'), each with its phases. */
  readonly steps: StepPhases[];
  summary(): string;
  restore(): void;
}

type Settle = (...args: unknown[]) => Promise<unknown>;

export function meterPhases(engine: ActionEngine): PhaseMeter {
  let current = zero();
  let runDepth = 0;
  let settleDepth = 0;
  const steps: StepPhases[] = [];
  const observe = engine.observe.bind(engine);
  const run = engine.run.bind(engine);
  const inner = engine as unknown as { settle: Settle };
  const settle = inner.settle.bind(engine) as Settle;
  engine.observe = async (...args) => {
    const started = performance.now();
    try {
      return await observe(...args);
    } finally {
      const spent = performance.now() - started;
      if (settleDepth > 0) {
        // Inside settle: already counted as the app settling.
      } else if (runDepth > 0) {
        current.engineReads += 1;
        current.engineReadMs += spent;
      } else {
        current.replayReads += 1;
        current.replayReadMs += spent;
      }
    }
  };
  engine.run = async (...args) => {
    const started = performance.now();
    const before = { ...current };
    runDepth += 1;
    try {
      return await run(...args);
    } finally {
      runDepth -= 1;
      const spent = performance.now() - started;
      if (runDepth === 0) {
        current.runMs += spent;
        current.actMs += spent - (current.settleMs - before.settleMs) - (current.engineReadMs - before.engineReadMs);
      }
    }
  };
  const check = StepGate.prototype.check;
  StepGate.prototype.check = async function (this: StepGate, ...args) {
    const started = performance.now();
    try {
      return await check.apply(this, args);
    } finally {
      current.gateMs += performance.now() - started;
    }
  };
  inner.settle = async (...args: unknown[]) => {
    const started = performance.now();
    settleDepth += 1;
    try {
      return await settle(...args);
    } finally {
      settleDepth -= 1;
      if (settleDepth === 0) current.settleMs += performance.now() - started;
    }
  };
  return {
    steps,
    begin: () => {
      current = zero();
    },
    onStep: (step) => {
      if (step.status === 'ok' && step.ms !== undefined)
        steps.push({ ...current, action: step.action, stepMs: step.ms, overheadMs: Math.max(0, step.ms - current.settleMs) });
      current = zero();
    },
    summary: () => {
      const p50 = (pick: (phases: StepPhases) => number): number => Math.round(median(steps.map(pick)) * 10) / 10;
      const actions = [...new Set(steps.map((step) => step.action))];
      const byAction = actions.map((action) => {
        const mine = steps.filter((step) => step.action === action);
        const p = (pick: (phases: StepPhases) => number): number => Math.round(median(mine.map(pick)));
        return `${action} ×${mine.length}: step ${p((s) => s.stepMs)} = settle ${p((s) => s.settleMs)} + overhead ${p((s) => s.overheadMs)} (reads ${p((s) => s.replayReads)}+${p((s) => s.engineReads)}, ${p((s) => s.replayReadMs + s.engineReadMs)} ms; call ${p((s) => s.actMs)} ms)`;
      });
      return [
        `phases p50 over ${steps.length} steps: step ${p50((s) => s.stepMs)} ms = settle ${p50((s) => s.settleMs)} ms + overhead ${p50((s) => s.overheadMs)} ms`,
        `  overhead parts p50: replay reads ${p50((s) => s.replayReads)} (${p50((s) => s.replayReadMs)} ms), engine resolve reads ${p50((s) => s.engineReads)} (${p50((s) => s.engineReadMs)} ms), action call ${p50((s) => s.actMs)} ms, gate ${p50((s) => s.gateMs)} ms, rest (waits, locator matching, bookkeeping) ${p50((s) => s.overheadMs - s.replayReadMs - s.engineReadMs - s.actMs - s.gateMs)} ms`,
        ...byAction.map((line) => `  ${line}`),
      ].join('\n');
    },
    restore: () => {
      engine.observe = observe;
      engine.run = run;
      inner.settle = settle;
      StepGate.prototype.check = check;
    },
  };
}
