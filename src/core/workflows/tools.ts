import { z } from 'zod';
import type { RiskReason } from '../../shared/risk';
import { MAX_TEXT_CHARS } from '../tools/bounds';
import { riskyCombo, riskyName } from '../tools/risk';
import { resolveApp, targetFields } from '../tools/target';
import { defineTool, type AnyTool, type TypedText } from '../tools/types';
import { resolveWorkflowApp } from './app-identity';
import { findWorkflow, type SavedWorkflow } from './folder';
import { fill, fillStep, resolveValues } from './params';
import { formatReport, runStoppedShort } from './report';
import { runWorkflow } from './runner';
import type { Workflow } from './schema';

/**
 * Why running the workflow is risky: the first of its steps the safety rules would ask about,
 * judged as it will run, with `values` filled in. A step's key or button name may be a
 * parameter (`"key": "{{key}}"`), and judged unfilled, a model's `key: "q", modifier: "ctrl"`
 * or `button: "Delete all"` ran with no approval.
 */
export function workflowRisk(workflow: Workflow, values: Readonly<Record<string, string>> = {}): RiskReason | undefined {
  for (const step of workflow.steps.map((each) => fillStep(each, values))) {
    if (step.action === 'key') {
      const combo = riskyCombo(step.key, step.modifiers ?? []);
      if (combo !== undefined) return combo;
    }
    if (step.action === 'click' && riskyName(step.target.name)) return { code: 'clicks', values: { name: JSON.stringify(step.target.name) } };
  }
  return undefined;
}

/** Text the workflow would put into fields, by the field's label, for the gate's secret-field rule. */
function typedText(workflow: Workflow, values: Record<string, string>): TypedText[] {
  const typed: TypedText[] = [];
  for (const step of workflow.steps) {
    if (step.action !== 'set_value' && step.action !== 'type') continue;
    const raw = step.action === 'set_value' ? step.value : step.text;
    if (typeof raw === 'string') typed.push({ label: step.target.name, text: fill(raw, values) });
  }
  return typed;
}

/**
 * A saved workflow as a tool the agent's model can call, named `workflow_<name>`, its
 * parameters as arguments. The agent's safety gate judges the call as a whole (risky when a
 * step would be; text for secret fields only from the user's message), so the replay itself
 * runs trusted. The result is the run's report.
 */
export function workflowTool(saved: SavedWorkflow): AnyTool {
  const { workflow } = saved;
  const shape: Record<string, z.ZodType> = {};
  for (const [name, parameter] of Object.entries(workflow.parameters ?? {})) {
    const field = z
      .string()
      .max(MAX_TEXT_CHARS)
      .describe(parameter.description ?? name);
    shape[name] = parameter.default === undefined ? field : field.optional();
  }
  const schema = z.strictObject({ ...targetFields, ...shape });
  const values = (args: Record<string, unknown>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(args).filter((entry): entry is [string, string] => entry[0] !== 'pid' && entry[0] !== 'app' && typeof entry[1] === 'string'),
    );
  /** The values the safety rules judge: the defaults, then what the call gives. */
  const filled = (args: Record<string, unknown>): Record<string, string> => ({ ...resolveDefaults(workflow), ...values(args) });
  return defineTool({
    name: `workflow_${saved.name.replace(/-/g, '_')}`.slice(0, 64),
    title: workflow.name,
    description: `Replays the saved workflow "${workflow.name}" (${workflow.steps.length} steps) without improvising; it halts with a report when a step cannot be done exactly.${workflow.description === undefined ? '' : ` ${workflow.description.slice(0, 300)}`}`,
    schema,
    effects: 'act',
    safety: {
      risk: (args) => workflowRisk(workflow, filled(args)),
      typedText: (args) => typedText(workflow, filled(args)),
      plan: () => ({ verb: 'run', target: workflow.name }),
    },
    async handler(args, context) {
      const given = values(args);
      const app = await resolveApp(context, args as { pid?: number; app?: string });
      const report = await runWorkflow(workflow, {
        engine: context.engine,
        platform: context.platform,
        pid: app.pid,
        values: resolveValues(workflow, given),
        given,
        trusted: true,
        signal: context.signal,
        ...(context.clock === undefined ? {} : { clock: context.clock }),
      });
      return { success: report.status === 'completed', message: formatReport(report), data: report };
    },
  });
}

function resolveDefaults(workflow: Workflow): Record<string, string> {
  return Object.fromEntries(
    Object.entries(workflow.parameters ?? {}).flatMap(([name, parameter]) => (parameter.default === undefined ? [] : [[name, parameter.default]])),
  );
}

/**
 * `workflow_run` for MCP clients: a saved workflow by name from one folder (never a path, so a
 * client cannot make the server read files elsewhere). Risky steps are not asked about here,
 * since nobody can answer: they halt with `approval_needed`, and the CLI's --yes runs them.
 */
export function workflowRunTool(dir: string): AnyTool {
  const schema = z.strictObject({
    ...targetFields,
    name: z.string().max(64).describe('The workflow\'s file name in the workflows folder, without ".json".'),
    vars: z.record(z.string().max(64), z.string().max(MAX_TEXT_CHARS)).optional().describe('Parameter values by name; the rest take their defaults.'),
    dryRun: z.boolean().optional().describe('Resolve every step and return the plan, acting on nothing.'),
  });
  return defineTool({
    name: 'workflow_run',
    title: 'Run a saved workflow',
    description:
      'Replays a saved Deskpilot workflow without a model: each step finds its element by identity, acts, and checks its recorded effect. It halts (success false) rather than guess, with a report naming the step, what it looked for and each candidate refused.',
    schema,
    effects: 'act',
    async handler(args, context) {
      const saved = await findWorkflow(dir, args.name);
      const given = args.vars ?? {};
      // Named by the call, else the app the workflow was made in (by its identity), else the call's target app.
      const app =
        args.pid !== undefined || args.app !== undefined
          ? await resolveApp(context, { pid: args.pid, app: args.app })
          : ((await resolveWorkflowApp(context, saved.workflow.app)) ?? (await resolveApp(context, {})));
      const report = await runWorkflow(saved.workflow, {
        engine: context.engine,
        platform: context.platform,
        pid: app.pid,
        values: resolveValues(saved.workflow, given),
        given,
        dryRun: args.dryRun === true,
        signal: context.signal,
        ...(context.clock === undefined ? {} : { clock: context.clock }),
      });
      // A dry run whose steps do not all resolve fails as the CLI's exit 3 does; `halted` says so in the data.
      const halted = runStoppedShort(report);
      return { success: !halted, message: formatReport(report), data: { ...report, halted } };
    },
  });
}
