import { describe, expect, it } from 'vitest';
import { toolResultOf } from './tool-result';

describe('an MCP tool result for the model', () => {
  it('keeps text, names images instead of sending them, and falls back to structured content', () => {
    expect(
      toolResultOf({
        content: [
          { type: 'text', text: 'Total: 42.00' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        ],
      }),
    ).toEqual({ success: true, message: 'Total: 42.00\n[image image/png, 3 bytes, not shown]' });
    expect(toolResultOf({ content: [], structuredContent: { total: 42 } })).toEqual({ success: true, message: '{"total":42}', data: { total: 42 } });
    expect(toolResultOf({ content: [] })).toEqual({ success: true, message: '(no output)' });
  });

  it('cuts a long result to the budget and says how much was left out; isError fails', () => {
    expect(toolResultOf({ content: [{ type: 'text', text: 'x'.repeat(50) }] }, 20).message).toBe(`${'x'.repeat(20)}\n… cut: 30 more characters`);
    expect(toolResultOf({ content: [{ type: 'text', text: 'no such file' }], isError: true })).toEqual({ success: false, message: 'no such file' });
  });
});
