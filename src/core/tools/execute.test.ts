import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotSettableError } from '../../shared/errors';
import { executeTool, prepareCall, unknownToolResult } from './execute';
import { fakeContext } from './fake-context';
import { defineTool, type AnyTool } from './types';

const echo = defineTool({
  name: 'echo',
  description: 'says the word back',
  schema: z.strictObject({ word: z.string() }),
  handler: (args) => Promise.resolve({ success: true, message: args.word, data: { word: args.word } }),
});

const throwing = (error: unknown): AnyTool =>
  defineTool({
    name: 'breaks',
    description: '',
    schema: z.strictObject({}),
    handler: () => Promise.reject(error instanceof Error ? error : new Error(String(error))),
  });

describe('executeTool', () => {
  it('turns malformed JSON into a typed VALIDATION result that names the JSON error and the missing field', async () => {
    const result = await executeTool(echo, { json: '{"word": ' }, fakeContext());
    expect(result.success).toBe(false);
    expect(result.error).toMatchObject({ code: 'VALIDATION', isRetryable: false, data: { jsonError: expect.any(String) as unknown } });
    expect(result.error?.message).toMatch(/^invalid arguments for echo: the arguments were not valid JSON \(.+\), so \{\} was used; 'word' is required/);
    // The message is the error as a model reads it: the code, the message, the next step.
    expect(result.message).toBe(`VALIDATION: ${result.error?.message ?? ''}. Fix the arguments named above and call again.`);
  });

  it('refuses arguments the schema refuses, parsed or not, without running the handler', async () => {
    let ran = 0;
    const counted = defineTool({ ...echo, handler: () => ((ran += 1), Promise.resolve({ success: true, message: '' })) });
    const fromValue = await executeTool(counted, { value: { word: 3 } }, fakeContext());
    const fromJson = await executeTool(counted, { json: '{"word":3}' }, fakeContext());
    expect(fromValue).toEqual(fromJson);
    expect(fromValue.error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/^invalid arguments for echo: 'word'/) as unknown });
    expect(ran).toBe(0);
    expect(prepareCall(counted, { value: null })).toMatchObject({ ok: false });
  });

  it('turns a throw into a failed result carrying the serialized error, typed or not', async () => {
    const typed = await executeTool(throwing(new NotSettableError()), { json: '{}' }, fakeContext());
    expect(typed).toMatchObject({ success: false, error: { code: 'NOT_SETTABLE', isRetryable: false }, data: { error: { code: 'NOT_SETTABLE' } } });
    expect(typed.message).toMatch(/^NOT_SETTABLE: element does not support set_value/);
    const plain = await executeTool(throwing(new Error('boom')), { json: '{}' }, fakeContext());
    expect(plain).toMatchObject({ success: false, message: 'INTERNAL: boom', error: { code: 'INTERNAL', message: 'boom' } });
  });

  it('fills in the typed error of a failed result the tool returned without one', async () => {
    const failing = defineTool({
      name: 'fails',
      description: '',
      schema: z.strictObject({}),
      handler: () => Promise.resolve({ success: false, message: 'PROCESS_EXITED: gone' }),
    });
    expect((await executeTool(failing, { json: '' }, fakeContext())).error).toEqual({ code: 'PROCESS_EXITED', message: 'gone', isRetryable: false });
  });

  it('tells the onThrow hook of a thrown error, and rethrows a stop instead of making it a result', async () => {
    const seen: unknown[] = [];
    const boom = new Error('boom');
    await executeTool(throwing(boom), { json: '{}' }, fakeContext(), { onThrow: (error) => seen.push(error) });
    expect(seen).toEqual([boom]);
    const context = fakeContext();
    const stopping = defineTool({
      name: 'stops',
      description: '',
      schema: z.strictObject({}),
      handler: () => {
        context.controller.abort(new Error('stopped'));
        return Promise.resolve({ success: true, message: 'too late' });
      },
    });
    await expect(executeTool(stopping, { json: '{}' }, context)).rejects.toThrow('stopped');
    expect(seen).toHaveLength(1);
  });

  it('cuts a result to the budget and marks it: the text says so and `truncated` is set', async () => {
    const long = 'line of text\n'.repeat(200);
    const context = { ...fakeContext(), maxChars: 300 };
    const cut = await executeTool(echo, { value: { word: long } }, context);
    expect(cut.truncated).toBe(true);
    expect(cut.message.length).toBeLessThanOrEqual(300);
    expect(cut.message).toMatch(/output cut at 300 characters \(of 2600\)\. Ask for less/);
    expect(JSON.stringify(cut.data).length).toBeLessThanOrEqual(300);
    const whole = await executeTool(echo, { value: { word: 'short' } }, context);
    expect(whole).toEqual({ success: true, message: 'short', data: { word: 'short' } });
    // No budget, no cut: the agent's model gets the whole result.
    expect((await executeTool(echo, { value: { word: long } }, fakeContext())).message).toBe(long);
  });

  it('words an unknown tool once for every program: the case slip named, else the list', () => {
    expect(unknownToolResult('UI_TREE', ['ui_tree']).message).toBe(
      "VALIDATION: unknown tool 'UI_TREE'. Tool names are lowercase: call 'ui_tree'. Fix the arguments named above and call again.",
    );
    expect(unknownToolResult('x'.repeat(100), ['a', 'b']).error).toMatchObject({
      code: 'VALIDATION',
      message: `unknown tool '${'x'.repeat(64)}…'. Tools: a, b.`,
    });
  });
});
