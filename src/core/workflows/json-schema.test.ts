import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workflowJsonSchema } from './json-schema';

const FILE = new URL('../../../docs/workflow.schema.json', import.meta.url);

describe('docs/workflow.schema.json', () => {
  it('is the schema derived from the zod schema (regenerate with UPDATE_WORKFLOW_SCHEMA=1)', () => {
    const derived = workflowJsonSchema();
    // Compared as JSON, so the committed file may be laid out by prettier.
    if (process.env['UPDATE_WORKFLOW_SCHEMA'] === '1') writeFileSync(FILE, `${JSON.stringify(derived, null, 2)}\n`);
    expect(JSON.parse(readFileSync(FILE, 'utf8'))).toEqual(derived);
  });
});
