import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { uiActionRequestSchema } from './ui-action';
import { uiActionFields, uiActionToolSchema } from './ui-action-schema';

describe('the flat ui_action tool schema', () => {
  it('offers every field the contract accepts, and nothing else', () => {
    const contractFields = new Set(uiActionRequestSchema.options.flatMap((option) => Object.keys(option.shape)));
    expect(new Set(Object.keys(uiActionFields))).toEqual(contractFields);
  });

  it('requires only action, and describes every field', () => {
    const json = z.toJSONSchema(uiActionToolSchema, { io: 'input' }) as { required: string[]; properties: Record<string, { description?: string }> };
    expect(json.required).toEqual(['action']);
    for (const [name, property] of Object.entries(json.properties)) expect(property.description, name).toBeTruthy();
  });

  it('teaches observe → act → verify: changed: false is a soft failure, except for scroll', () => {
    const action = uiActionFields.action.description ?? '';
    expect(action).toMatch(/observe → act → verify/i);
    expect(action).toMatch(/changed: false .*soft failure/);
    expect(action).toMatch(/scroll/);
  });
});
