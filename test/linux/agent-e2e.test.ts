/**
 * The whole agent for real: a local OpenAI-compatible server streams SSE with tool calls,
 * the real OpenAICompatibleProvider and Agent run them on the Linux backend (Xvfb, AT-SPI2),
 * and the end state is read back from the fixture app's accessibility tree.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent-events';
import { Agent } from '../../src/main/core/agent';
import { OpenAICompatibleProvider } from '../../src/main/core/agent/provider';
import { createToolRegistry } from '../../src/main/core/agent/tools';
import { findNodes } from '../../src/main/core/ui/query';
import type { UiNode } from '../../src/shared/ui-node';
import { lastToolResult, startFakeOpenAIServer, textSteps, toolCallSteps, type FakeOpenAIServer, type RecordedRequest, type Reply } from '../agent/fake-openai-server';
import { startDesktop, type Desktop } from './desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

/** A model turn that clicks the node the previous find_elements returned for `label`. */
function clickFound(callId: string, role: string, label: string): (request: RecordedRequest) => Reply {
  return (request) => {
    const result = lastToolResult(request);
    const id = new RegExp(`\\[(\\w+)\\] ${role} "${label}"`).exec(result)?.[1];
    if (id === undefined) throw new Error(`no ${role} "${label}" in the find_elements result: ${result}`);
    return { kind: 'stream', steps: toolCallSteps([{ id: callId, name: 'ui_action', arguments: JSON.stringify({ action: 'click', id }) }]) };
  };
}

function find(callId: string, role: string, name: string): Reply {
  return { kind: 'stream', steps: toolCallSteps([{ id: callId, name: 'find_elements', arguments: JSON.stringify({ role, name }) }]) };
}

describe.skipIf(!run)('agent end to end on the GTK3 fixture', () => {
  let desktop: Desktop;
  let pid: number;
  let server: FakeOpenAIServer;
  let events: AgentEvent[];
  let agent: Agent;

  beforeAll(async () => {
    desktop = await startDesktop({ openbox: true });
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
    server.reply(
      find('call_find', 'checkbox', 'Enable feature'),
      clickFound('call_click', 'checkbox', 'Enable feature'),
      { kind: 'stream', steps: textSteps(['Done: ', 'the feature ', 'is enabled.']) },
    );
    const answer = await agent.ask('Enable the feature', { pid });

    expect(answer).toMatchObject({ text: 'Done: the feature is enabled.', stopped: false, reason: 'answered' });
    expect(milestones()).toEqual(['ask', 'ai_request', 'tool_call', 'tool_result', 'ai_request', 'tool_call', 'tool_result', 'ai_request', 'done']);
    const chunks = events.flatMap((event) => (event.type === 'ai_chunk' ? [event.delta] : []));
    expect(chunks.join('')).toBe('Done: the feature is enabled.');
    expect(chunks.length).toBeGreaterThan(1);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => [event.name, event.success])).toEqual([
      ['find_elements', true],
      ['ui_action', true],
    ]);
    expect(results[1]?.data).toMatchObject({ changed: true, nodeAfter: { states: { checked: true } } });
    // The model saw its tools and, on the second turn, the first tool result.
    const firstBody = server.requests.at(-3)?.body as { tools: { function: { name: string } }[] };
    expect(firstBody.tools.map((tool) => tool.function.name)).toContain('ui_action');
    expect(lastToolResult(server.requests.at(-2) as RecordedRequest)).toMatch(/checkbox "Enable feature"/);

    expect((await node('checkbox', 'Enable feature')).states.checked).toBe(true);
  }, 60_000);

  it('recovers when the model first sends malformed JSON arguments', async () => {
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call_bad', name: 'find_elements', arguments: '{"role":"button","name":"Clicked' }]) },
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
    expect(events.some((event) => event.type === 'error')).toBe(false);
    expect((await node('button', 'Clicked 1 time')).name).toBe('Clicked 1 time');
  }, 60_000);
});
