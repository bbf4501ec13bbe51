import { z } from 'zod';
import { ValidationError } from '../shared/errors';
import { describeZodIssues } from '../core/agent/tools/validation-message';

/** Every tool that reads or acts on an app names it by one of these. */
export const targetShape = {
  pid: z.number().int().positive().optional().describe('Process id of the app, from ui_apps'),
  app: z.string().min(1).optional().describe('App name from ui_apps, instead of pid (matched loosely)'),
};

/**
 * What the SDK sees as a tool's input schema: it accepts any object, so our own parser
 * decides and a bad argument comes back as a VALIDATION tool result rather than the SDK's
 * protocol-level InvalidParams text. Its JSON Schema, which clients show the model, is the
 * strict schema's own.
 */
export function looseInput(strict: z.ZodType): z.ZodObject {
  const { $schema: _schema, ...json } = z.toJSONSchema(strict, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return z.looseObject({}).meta(json);
}

/** Parses tool arguments with a strict schema, naming each wrong field in one VALIDATION error. */
export function parseArgs<S extends z.ZodType>(tool: string, schema: S, args: unknown): z.output<S> {
  const parsed = schema.safeParse(args ?? {});
  if (!parsed.success) throw new ValidationError(`invalid ${tool} arguments: ${describeZodIssues(parsed.error)}`);
  return parsed.data;
}

/** A node as results carry it: the contract's fields, loose so platform extras pass through. */
export const nodeOutput = z.looseObject({
  id: z.string(),
  role: z.string(),
  platformRole: z.string(),
  name: z.string(),
  value: z.union([z.string(), z.number()]).optional(),
  description: z.string().optional(),
  states: z.looseObject({ enabled: z.boolean(), focused: z.boolean() }),
  actions: z.array(z.string()),
});

export const errorOutput = z.object({
  code: z.string(),
  message: z.string(),
  isRetryable: z.boolean(),
  data: z.record(z.string(), z.unknown()).optional(),
});
