import { describe, expect, it } from 'vitest';
import { ToolCallAssembler } from './tool-call-assembler';

describe('ToolCallAssembler', () => {
  it('joins interleaved fragments by index and emits in index order', () => {
    const assembler = new ToolCallAssembler();
    assembler.add({ index: 1, id: 'b', function: { name: 'ui_read', arguments: '{"id":' } });
    assembler.add({ index: 0, id: 'a', function: { name: 'ui_tree', arguments: '' } });
    assembler.add({ index: 1, function: { arguments: '"n1"}' } });
    assembler.add({ index: 0, function: { arguments: '{}' } });
    expect(assembler.finish()).toEqual([
      { type: 'tool_call', id: 'a', name: 'ui_tree', arguments: '{}' },
      { type: 'tool_call', id: 'b', name: 'ui_read', arguments: '{"id":"n1"}' },
    ]);
    expect(assembler.size).toBe(0);
  });

  it('accepts a name split across chunks or repeated, and invents an id when none came', () => {
    const assembler = new ToolCallAssembler();
    assembler.add({ index: 0, function: { name: 'ui_' } });
    assembler.add({ index: 0, function: { name: 'action' } });
    assembler.add({ index: 2, function: { name: 'ui_tree' } });
    assembler.add({ index: 2, function: { name: 'ui_tree' } });
    expect(assembler.finish().map((call) => [call.id, call.name])).toEqual([
      ['call_0', 'ui_action'],
      ['call_2', 'ui_tree'],
    ]);
  });

  it('fails with PROVIDER_STREAM for a call that never got a name', () => {
    const assembler = new ToolCallAssembler();
    assembler.add({ index: 0, id: 'x', function: { arguments: '{}' } });
    expect(() => assembler.finish()).toThrow(expect.objectContaining({ code: 'PROVIDER_STREAM' }));
  });
});
