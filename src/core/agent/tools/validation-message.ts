import type { z } from 'zod';

function fieldName(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join('.');
}

/**
 * One line per zod issue, naming the field, so a model can fix exactly what was wrong.
 * Zod's own messages are kept: they already say what was expected and what came.
 */
export function describeZodIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = fieldName(issue.path);
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.map((key) => `'${field === '' ? key : `${field}.${key}`}'`).join(', ');
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}`;
      }
      return field === '' ? issue.message : `'${field}': ${issue.message}`;
    })
    .join('; ');
}
