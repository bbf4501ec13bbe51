import { describe, expect, it } from 'vitest';
import { wellFormed, wellFormedText } from './well-formed';

describe('wellFormed', () => {
  it('replaces a half of a surrogate pair, alone at either end or inside, and keeps whole pairs', () => {
    const emoji = '😀';
    const cut = emoji.slice(0, 1);
    expect(wellFormedText(`name ${cut}`)).toBe('name \uFFFD');
    expect(wellFormedText(`${emoji.slice(1)} and ${cut}x ${emoji}`)).toBe(`\uFFFD and \uFFFDx ${emoji}`);
    expect(wellFormedText(`plain ${emoji}`)).toBe(`plain ${emoji}`);
  });

  it('mends every string of a request and leaves the parts without one as they were', () => {
    const tools = [{ type: 'function', function: { name: 'ui_tree', parameters: { type: 'object' } } }];
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'tool', tool_call_id: 'c1', content: `Result: ${'😀'.slice(0, 1)}` },
    ];
    const fixed = wellFormed({ messages, tools });
    expect(fixed.messages[1]?.content).toBe('Result: \uFFFD');
    expect(fixed.messages[0]).toBe(messages[0]);
    expect(fixed.tools).toBe(tools);
    expect(JSON.stringify(fixed)).not.toMatch(/\\ud[89ab]/i);
  });
});
