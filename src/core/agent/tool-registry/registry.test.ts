import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotSettableError } from '../../../shared/errors';
import { createToolRegistry } from './registry';
import { ToolRegistry, argumentObject } from './registry';
import { fakeContext } from '../../tools/fake-context';
import { defineTool } from '../../tools/types';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes a word',
  promptSnippet: 'for tests',
  schema: z.strictObject({ word: z.string().min(1), times: z.number().int().max(3).optional() }),
  handler: (args) => Promise.resolve({ success: true, message: args.word.repeat(args.times ?? 1) }),
});

const noArgs = defineTool({
  name: 'ping',
  description: 'Pings',
  schema: z.strictObject({}),
  handler: () => Promise.resolve({ success: true, message: 'pong' }),
});

describe('ToolRegistry', () => {
  it('runs a tool with parsed, validated arguments', async () => {
    const registry = new ToolRegistry([echo]);
    expect(await registry.call('echo', '{"word":"hi","times":2}', fakeContext())).toEqual({ success: true, message: 'hihi' });
  });

  it('gives definitions in the OpenAI function shape, with the schema derived from zod', () => {
    const registry = new ToolRegistry([echo]);
    const [definition] = registry.definitions();
    expect(definition).toEqual({
      type: 'function',
      function: {
        name: 'echo',
        description: 'Echoes a word',
        parameters: {
          type: 'object',
          properties: { word: { type: 'string', minLength: 1 }, times: { type: 'integer', maximum: 3, minimum: expect.any(Number) as number } },
          required: ['word'],
          additionalProperties: false,
        },
      },
    });
    expect(registry.promptSnippets()).toBe('- echo: for tests');
  });

  it('derives an object schema for every built-in tool', () => {
    const registry = createToolRegistry();
    expect(registry.names()).toEqual([
      'ui_apps',
      'ui_tree',
      'ui_find',
      'ui_read',
      'ui_screenshot',
      'ui_action',
      'ui_fill_form',
      'ui_wait_for',
      'ui_focus_app',
      'ui_close_window',
      'search_docs',
    ]);
    for (const definition of registry.definitions()) {
      expect(definition.type).toBe('function');
      if (definition.type !== 'function') continue;
      expect(definition.function.parameters?.type).toBe('object');
      expect(definition.function.parameters).not.toHaveProperty('$schema');
    }
  });

  it('rejects a duplicate name and a name providers would refuse', () => {
    const registry = new ToolRegistry([echo]);
    expect(() => registry.registerTool(echo)).toThrow(/already registered/);
    expect(() => registry.registerTool({ ...noArgs, name: 'has space' })).toThrow(/letters, digits/);
    registry.registerTool(noArgs);
    expect(registry.has('ping')).toBe(true);
  });

  it('refuses a schema that is not an object at the top', () => {
    const registry = new ToolRegistry();
    expect(() =>
      registry.registerTool(
        defineTool({ name: 'u', description: '', schema: z.union([z.string(), z.number()]), handler: () => Promise.resolve({ success: true, message: '' }) }),
      ),
    ).toThrow(/object/);
  });

  it('falls back to {} on malformed JSON and puts the JSON error in the validation message', async () => {
    const result = await new ToolRegistry([echo]).call('echo', '{"word": "hi"', fakeContext());
    expect(result.success).toBe(false);
    expect(result.message).toMatch(
      /^VALIDATION: invalid arguments for echo: the arguments were not valid JSON \(.+\), so \{\} was used; 'word' is required \(string\)/,
    );
  });

  it('runs a no-argument tool on malformed JSON, and says the JSON was bad', async () => {
    const result = await new ToolRegistry([noArgs]).call('ping', '{oops', fakeContext());
    expect(result.success).toBe(true);
    expect(result.message).toMatch(/^\(the arguments were not valid JSON .*\) pong$/);
    expect(await new ToolRegistry([noArgs]).call('ping', '', fakeContext())).toEqual({ success: true, message: 'pong' });
  });

  it('names the wrong field on a schema failure', async () => {
    const registry = new ToolRegistry([echo]);
    const tooMany = await registry.call('echo', '{"word":"hi","times":9}', fakeContext());
    expect(tooMany.success).toBe(false);
    expect(tooMany.message).toMatch(/^VALIDATION: invalid arguments for echo: 'times': .*3/);
    const extra = await registry.call('echo', '{"word":"hi","colour":"red"}', fakeContext());
    expect(extra.message).toContain("unknown field 'colour'");
  });

  it('lists the known tools for an unknown name', async () => {
    const result = await new ToolRegistry([echo, noArgs]).call('nope', '{}', fakeContext());
    // The MCP server's wording (tools/execute.ts): one vocabulary whichever program runs the tool.
    expect(result).toMatchObject({
      success: false,
      message: "VALIDATION: unknown tool 'nope'. Tools: echo, ping. Fix the arguments named above and call again.",
      error: { code: 'VALIDATION', message: "unknown tool 'nope'. Tools: echo, ping.", data: { reason: 'unknown_tool', tool: 'nope' } },
    });
  });

  it('turns a thrown typed error, or any error, into a result with its code', async () => {
    const registry = new ToolRegistry([
      defineTool({ name: 'typed', description: '', schema: z.strictObject({}), handler: () => Promise.reject(new NotSettableError()) }),
      defineTool({ name: 'plain', description: '', schema: z.strictObject({}), handler: () => Promise.reject(new Error('boom')) }),
    ]);
    const typed = await registry.call('typed', '{}', fakeContext());
    // The code, the message, then the next step in the model's own tools (advice.ts), as the MCP server says it.
    expect(typed).toMatchObject({
      success: false,
      message: "NOT_SETTABLE: element does not support set_value; try 'type'. Use ui_action 'type' on the same id instead.",
      error: { code: 'NOT_SETTABLE' },
    });
    expect(await registry.call('plain', '{}', fakeContext())).toMatchObject({
      success: false,
      message: 'INTERNAL: boom',
      error: { code: 'INTERNAL', message: 'boom' },
    });
  });

  it('rethrows when the signal aborts: cancellation is not a tool error', async () => {
    const context = fakeContext();
    const registry = new ToolRegistry([
      defineTool({
        name: 'slow',
        description: '',
        schema: z.strictObject({}),
        handler: () => {
          context.controller.abort(new Error('stopped'));
          return Promise.reject(new Error('interrupted'));
        },
      }),
    ]);
    await expect(registry.call('slow', '{}', context)).rejects.toThrow('interrupted');
    await expect(registry.call('slow', '{}', context)).rejects.toThrow('stopped');
  });
});

describe('argumentObject', () => {
  it('reads arguments the way the registry parses them, for the gate and the end-state check', () => {
    expect(argumentObject('{"action":"set_value","value":150}')).toEqual({ action: 'set_value', value: 150 });
    expect(argumentObject('')).toEqual({});
    expect(argumentObject('{"value": ')).toEqual({});
    expect(argumentObject('[1,2]')).toEqual({});
    expect(argumentObject('null')).toEqual({});
  });
});
