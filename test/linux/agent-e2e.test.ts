/**
 * The whole agent for real: a local OpenAI-compatible server streams SSE with tool calls,
 * the real OpenAICompatibleProvider and Agent run them on the Linux backend (Xvfb, AT-SPI2),
 * and the end state is read back from the fixture app's accessibility tree. The agent's own
 * end-state check (done.check) must agree with what the test reads.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent-events';
import { Agent } from '../../src/core/agent';
import { OpenAICompatibleProvider } from '../../src/core/agent/provider';
import { createToolRegistry } from '../../src/core/agent/tool-registry';
import { findNodes } from '../../src/core/ui/query';
import type { UiNode } from '../../src/shared/ui-node';
import {
  lastToolResult,
  startFakeOpenAIServer,
  textSteps,
  toolCallSteps,
  type FakeOpenAIServer,
  type RecordedRequest,
  type Reply,
} from '../agent/fake-openai-server';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

/** A model turn that clicks the node the previous ui_find returned for `label`. */
function clickFound(callId: string, role: string, label: string): (request: RecordedRequest) => Reply {
  return (request) => {
    const result = lastToolResult(request);
    const id = new RegExp(`(\\w{5}) ${role} ${label}(?: |$)`, 'm').exec(result)?.[1];
    if (id === undefined) throw new Error(`no ${role} "${label}" in the ui_find result: ${result}`);
    return { kind: 'stream', steps: toolCallSteps([{ id: callId, name: 'ui_action', arguments: JSON.stringify({ action: 'click', id }) }]) };
  };
}

function find(callId: string, role: string, name: string): Reply {
  return { kind: 'stream', steps: toolCallSteps([{ id: callId, name: 'ui_find', arguments: JSON.stringify({ role, name }) }]) };
}

describe.skipIf(!run)('agent end to end on the GTK3 fixture', () => {
  let desktop: Desktop;
  let pid: number;
  let server: FakeOpenAIServer;
  let events: AgentEvent[];
  let agent: Agent;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    pid = (await desktop.launchFixture()).pid;
    server = await startFakeOpenAIServer();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await desktop?.stop();
  });

  beforeEach(() => {
    events = [];
    const provider = new OpenAICompatibleProvider({
      settings: () => ({}),
      env: () => ({ DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'dummy-key', DESKPILOT_MODEL: 'fake-model' }),
    });
    agent = new Agent({ provider, tools: createToolRegistry(), engine: desktop.engine, platform: desktop.platform, onEvent: (event) => events.push(event) });
  });

  async function node(role: string, name: string): Promise<UiNode> {
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    const match = findNodes(root, { role, name })[0];
    if (match === undefined) throw new Error(`no ${role} "${name}"`);
    return match.node;
  }

  const milestones = (): string[] => events.filter((event) => !['ai_chunk', 'ai_response', 'tool_log'].includes(event.type)).map((event) => event.type);

  it('finds the check box, clicks it, and answers; the box is checked in the tree', async () => {
    expect((await node('checkbox', 'Enable feature')).states.checked).not.toBe(true);
    server.reply(find('call_find', 'checkbox', 'Enable feature'), clickFound('call_click', 'checkbox', 'Enable feature'), {
      kind: 'stream',
      steps: textSteps(['Done: ', 'the feature ', 'is enabled.']),
    });
    const answer = await agent.ask('Enable the feature', { pid });

    expect(answer).toMatchObject({ text: 'Done: the feature is enabled.', stopped: false, reason: 'answered' });
    expect(milestones()).toEqual(['ask', 'ai_request', 'tool_call', 'tool_result', 'ai_request', 'tool_call', 'tool_result', 'ai_request', 'done']);
    const chunks = events.flatMap((event) => (event.type === 'ai_chunk' ? [event.delta] : []));
    expect(chunks.join('')).toBe('Done: the feature is enabled.');
    expect(chunks.length).toBeGreaterThan(1);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => [event.name, event.success])).toEqual([
      ['ui_find', true],
      ['ui_action', true],
    ]);
    expect(results[1]?.data).toMatchObject({ changed: true, nodeAfter: { states: { checked: true } } });
    // The model saw its tools and, on the second turn, the first tool result.
    const firstBody = server.requests.at(-3)?.body as { tools: { function: { name: string } }[] };
    expect(firstBody.tools.map((tool) => tool.function.name)).toContain('ui_action');
    expect(lastToolResult(server.requests.at(-2) as RecordedRequest)).toMatch(/checkbox Enable feature/);

    expect(events.at(-1)).toMatchObject({ type: 'done', check: { confirmed: true, notes: ['checkbox "Enable feature": as set'] } });
    expect((await node('checkbox', 'Enable feature')).states.checked).toBe(true);
  }, 60_000);

  it('recovers when the model first sends malformed JSON arguments', async () => {
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call_bad', name: 'ui_find', arguments: '{"role":"button","name":"Clicked' }]) },
      (request) => {
        // The bad call got a tool result telling the model what was wrong; it tries again.
        if (!/json|argument/i.test(lastToolResult(request))) throw new Error(`unexpected result for bad JSON: ${lastToolResult(request)}`);
        return find('call_find', 'button', 'Clicked 0 times');
      },
      clickFound('call_click', 'button', 'Clicked 0 times'),
      { kind: 'stream', steps: textSteps(['Clicked it once.']) },
    );
    const answer = await agent.ask('Press the counter button', { pid });

    expect(answer).toMatchObject({ text: 'Clicked it once.', reason: 'answered' });
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => [event.callId, event.success])).toEqual([
      ['call_bad', false],
      ['call_find', true],
      ['call_click', true],
    ]);
    expect(milestones().at(-1)).toBe('done');
    expect(events.at(-1)).toMatchObject({ type: 'done', check: { confirmed: true } });
    expect(events.some((event) => event.type === 'error')).toBe(false);
    expect((await node('button', 'Clicked 1 time')).name).toBe('Clicked 1 time');
  }, 60_000);

  it('carries out a plan: slider to 70, "hello" into the field, the button pressed twice; the check confirms it', async () => {
    const counter = await node('button', 'Clicked');
    const pressesBefore = Number(/Clicked (\d+) times?/.exec(counter.name)?.[1]);
    expect(Number.isInteger(pressesBefore)).toBe(true);
    expect((await node('textfield', 'Name')).value ?? '').toBe('');
    const plural = (count: number): string => `Clicked ${count} time${count === 1 ? '' : 's'}`;
    /** The id of `role "name"` in any tool result the model has seen so far. */
    const idIn = (request: RecordedRequest, role: string, name: string): string => {
      const messages = (request.body['messages'] ?? []) as { role: string; content?: unknown }[];
      const results = messages
        .filter((message) => message.role === 'tool')
        .map((message) => String(message.content))
        .join('\n');
      const id = new RegExp(`(\\w{5}) ${role} ${name}(?: |$)`, 'm').exec(results)?.[1];
      if (id === undefined) throw new Error(`no ${role} "${name}" in the tool results: ${results}`);
      return id;
    };
    const calls = (...list: [string, string, Record<string, unknown>][]): Reply => ({
      kind: 'stream',
      steps: toolCallSteps(list.map(([id, name, args]) => ({ id, name, arguments: JSON.stringify(args) }))),
    });
    server.reply(
      // Look: three lookups in one turn, as models batch them.
      calls(
        ['call_find_slider', 'ui_find', { role: 'slider', name: 'Volume' }],
        ['call_find_field', 'ui_find', { role: 'textfield', name: 'Name' }],
        ['call_find_button', 'ui_find', { role: 'button', name: 'Clicked' }],
      ),
      // Act on all three with the ids the lookups returned.
      (request) =>
        calls(
          ['call_slider', 'ui_action', { action: 'set_value', id: idIn(request, 'slider', 'Volume'), value: 70 }],
          ['call_type', 'ui_action', { action: 'type', id: idIn(request, 'textfield', 'Name'), text: 'hello' }],
          ['call_press_1', 'ui_action', { action: 'click', id: idIn(request, 'button', plural(pressesBefore)) }],
        ),
      // The button renamed itself, so its id changed: look it up again, then press it.
      calls(['call_find_again', 'ui_find', { role: 'button', name: plural(pressesBefore + 1) }]),
      (request) => calls(['call_press_2', 'ui_action', { action: 'click', id: idIn(request, 'button', plural(pressesBefore + 1)) }]),
      { kind: 'stream', steps: textSteps(['The volume is 70, ', 'the name is hello, ', 'and I pressed the button twice.']) },
    );
    const answer = await agent.ask("set the slider to 70, type 'hello' into the field and press the button twice", { pid });

    expect(answer).toMatchObject({ text: 'The volume is 70, the name is hello, and I pressed the button twice.', reason: 'answered' });
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => [event.callId, event.success])).toEqual([
      ['call_find_slider', true],
      ['call_find_field', true],
      ['call_find_button', true],
      ['call_slider', true],
      ['call_type', true],
      ['call_press_1', true],
      ['call_find_again', true],
      ['call_press_2', true],
    ]);
    for (const event of results.filter((each) => each.name === 'ui_action')) expect(event.data, event.callId).toMatchObject({ changed: true });
    expect(events.some((event) => event.type === 'error')).toBe(false);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', reason: 'answered', check: { confirmed: true } });
    expect((done as { check: { notes: string[] } }).check.notes).toEqual([
      'slider "Volume": as set',
      'textfield "Name": as set',
      `button "${plural(pressesBefore + 2)}": as set`,
    ]);

    // The app's own state, read back through the tree.
    expect((await node('slider', 'Volume')).value).toBe(70);
    expect((await node('textfield', 'Name')).value).toBe('hello');
    expect((await node('button', 'Clicked')).name).toBe(plural(pressesBefore + 2));
  }, 60_000);
});
