import { clipLine } from '../../shared/clip';
import type { Refusal, Rung } from './resolve';

export type HaltCode =
  'not_found' | 'ambiguous' | 'disabled' | 'action_failed' | 'effect_missing' | 'refused' | 'denied' | 'approval_needed' | 'app_exited' | 'window_missing';

/** One step as it ran (or was planned). */
export interface StepReport {
  /** 1-based, as people count steps. */
  step: number;
  action: string;
  intent?: string;
  status: 'ok' | 'halted' | 'planned' | 'unresolved' | 'not_run';
  /** What the step looked for, in words. */
  target?: string;
  rung?: Rung;
  /** The node it acted on (or would act on). */
  nodeId?: string;
  ms?: number;
  /** For a dry run: why the step did not resolve now. */
  note?: string;
}

/** Why a run stopped where it did. Nothing after `step` ran. */
export interface HaltReport {
  step: number;
  action: string;
  intent?: string;
  code: HaltCode;
  message: string;
  lookedFor?: string;
  candidates: Refusal[];
  screenshot?: string;
}

export interface RunReport {
  workflow: string;
  status: 'completed' | 'halted' | 'planned';
  steps: StepReport[];
  halt?: HaltReport;
  /** Milliseconds for the whole run, by the runner's clock. */
  ms: number;
}

/**
 * Whether a run stopped short: it halted, or (a dry run) a step does not resolve now, so running
 * it would halt. The CLI's exit 3 and the MCP tool's failure both come from here, so they agree.
 */
export function runStoppedShort(report: RunReport): boolean {
  return report.status === 'halted' || (report.status === 'planned' && report.steps.some((step) => step.status === 'unresolved'));
}

/** A report's line for one value, unless a width is said. */
const LINE = 120;

/** The report as people read it: one line per step, then the halt in full. App text is quoted and cut, never printed raw. */
export function formatReport(report: RunReport): string {
  const lines = [`workflow ${JSON.stringify(clipLine(report.workflow, 80))}: ${report.status}`];
  for (const step of report.steps) {
    const what = step.target === undefined ? step.action : `${step.action} ${clipLine(step.target, LINE)}`;
    const how = step.rung === undefined ? '' : ` [${step.rung}${step.nodeId === undefined ? '' : ` ${step.nodeId}`}]`;
    const time = step.ms === undefined ? '' : ` ${step.ms} ms`;
    const note = step.note === undefined ? '' : ` (${clipLine(step.note, LINE)})`;
    lines.push(`  ${String(step.step).padStart(3)}. ${step.status.padEnd(10)} ${what}${how}${time}${note}`);
  }
  const halt = report.halt;
  if (halt !== undefined) {
    lines.push(
      '',
      `HALTED at step ${halt.step} (${halt.action}${halt.intent === undefined ? '' : `: ${clipLine(halt.intent, 80)}`}): ${halt.code}`,
      `  ${clipLine(halt.message, 300)}`,
    );
    if (halt.lookedFor !== undefined) lines.push(`  looked for: ${clipLine(halt.lookedFor, 200)}`);
    if (halt.candidates.length === 0) lines.push('  candidates: none');
    for (const candidate of halt.candidates)
      lines.push(
        `  candidate [${candidate.id}] ${candidate.role} ${JSON.stringify(clipLine(candidate.name, 80))}: refused, ${clipLine(candidate.reason, 160)}`,
      );
    if (halt.screenshot !== undefined) lines.push(`  screenshot: ${halt.screenshot}`);
    lines.push('  Nothing after this step ran.');
  }
  lines.push(`${report.ms} ms`);
  return lines.join('\n');
}
