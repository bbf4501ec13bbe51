import { z } from 'zod';
import { workflowSchema } from './schema';

/** Where the published schema says it lives; files may name it in their "$schema". */
export const WORKFLOW_SCHEMA_ID = 'https://deskpilot.dev/schemas/workflow-1.json';

/** The JSON Schema of the workflow file, derived from the zod schema (docs/workflow.schema.json holds it). */
export function workflowJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(workflowSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return { ...schema, $id: WORKFLOW_SCHEMA_ID, title: 'Deskpilot workflow, version 1' };
}
