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
