import { z } from 'zod';

/** A workflow's file name in the folder (the core's FILE_NAME): nothing that could leave it. */
export const WORKFLOW_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;
/** A parameter's name (the core's PARAMETER_NAME). */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** The longest value a parameter may take (the tools' own bound on text). */
export const MAX_WORKFLOW_VALUE_CHARS = 100_000;

const name = z.string().regex(WORKFLOW_FILE_NAME, 'must be letters, digits, _ and - (at most 48)');
const askId = z.string().min(1).max(200);

/** The window's workflow requests, as main accepts them from the renderer. */
export const WORKFLOW_REQUEST_SCHEMAS = {
  run: z.strictObject({
    name,
    vars: z
      .record(z.string().regex(PARAMETER_NAME), z.string().max(MAX_WORKFLOW_VALUE_CHARS))
      .refine((vars) => Object.keys(vars).length <= 64, 'at most 64 values'),
    dryRun: z.boolean().optional(),
    trusted: z.boolean().optional(),
  }),
  draft: z.strictObject({ askId }),
  save: z.strictObject({ askId, name, parameters: z.array(z.string().regex(PARAMETER_NAME)).max(64) }),
};

const requestId = z.int().nonnegative();

/** The same requests between main and the host, each with its reply id (and the run's target app). */
export const WORKFLOW_HOST_REQUESTS = [
  /** Replied with a WorkflowListReply. */
  z.strictObject({ type: z.literal('workflowList'), requestId }),
  /** Replied with `{ runId }` at once; the run reports through `workflow` messages. */
  z.strictObject({ type: z.literal('workflowRun'), requestId, ...WORKFLOW_REQUEST_SCHEMAS.run.shape, pid: z.int().positive().optional() }),
  z.strictObject({ type: z.literal('workflowStop') }),
  /** Replied with a WorkflowDraft. */
  z.strictObject({ type: z.literal('workflowDraft'), requestId, ...WORKFLOW_REQUEST_SCHEMAS.draft.shape }),
  /** Replied with the saved WorkflowSummary. */
  z.strictObject({ type: z.literal('workflowSave'), requestId, ...WORKFLOW_REQUEST_SCHEMAS.save.shape }),
] as const;

/** A run's event from the host: the envelope is checked; main passes it to the window as is. */
export const WORKFLOW_HOST_MESSAGE = z.strictObject({
  type: z.literal('workflow'),
  event: z.looseObject({ type: z.enum(['started', 'step', 'approval', 'finished', 'failed', 'stopped']), runId: z.string().max(200) }),
});
