/** The Agent's response cache and history compaction, driven through real asks. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../shared/agent-events';
import { DeskpilotError } from '../../shared/errors';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { Agent, AgentOptions } from './agent';
import { SUMMARIZE_PROMPT, SUMMARY_PREFIX } from './compaction';
import { quoteUiData } from './context-message';
import type { ProviderMessage } from './provider/types';
import { answer, finish, text, toolCall, type FakeProvider, type ScriptedTurn } from './fake-provider';
import { RESPONSE_CACHE_TTL_MS } from './response-cache';
import { scriptedAgent } from './test-agent';

const target = { pid: FIXTURE_PID };

let platform: FakePlatform;
let events: AgentEvent[];
let clock: FakeClock;

beforeEach(() => {
  platform = new FakePlatform();
  events = [];
  clock = new FakeClock();
});

function makeAgent(turns: ScriptedTurn[], options: Partial<AgentOptions> = {}): { agent: Agent; provider: FakeProvider } {
  return scriptedAgent(turns, { platform, events, clock, ...options });
}

const askEvents = (askId: string): AgentEvent[] => events.filter((event) => event.askId === askId);
const roles = (messages: ProviderMessage[]): string[] => messages.map((message) => message.role);

/** Every assistant tool call is followed by exactly its tool results; no tool message stands alone. */
function expectValidRoles(messages: ProviderMessage[]): void {
  let open: string[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      expect(open).toContain(message.tool_call_id);
      open = open.filter((id) => id !== message.tool_call_id);
      continue;
    }
    expect(open).toEqual([]);
    if (message.role === 'assistant') open = (message.tool_calls ?? []).map((call) => call.id);
  }
  expect(open).toEqual([]);
}

describe('Agent response cache', () => {
  it('answers a repeat on the same UI state at once, without the provider', async () => {
    const { agent, provider } = makeAgent([answer('A ', 'window.')]);
    await agent.ask('What is here?', target);
    const requests = provider.requests.length;
    const result = await agent.ask('what is  here', target);
    expect(result).toMatchObject({ text: 'A window.', reason: 'answered', stopped: false, cached: true });
    expect(provider.requests).toHaveLength(requests);
    expect(askEvents('ask-2').map((event) => event.type)).toEqual(['ask', 'ai_chunk', 'ai_response', 'done']);
    expect(askEvents('ask-2').at(-1)).toMatchObject({ type: 'done', answer: 'A window.', cached: true });
    expect(askEvents('ask-1').at(-1)).not.toHaveProperty('cached');
    expect(roles(agent.history())).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(agent.history()[2]).toEqual({ role: 'user', content: 'what is  here' });
  });

  it('never replays a follow-up after a different conversation ("and now?")', async () => {
    const { agent, provider } = makeAgent([answer('Volume 50.'), answer('Still 50.'), answer('"Deskpilot Fixture".'), answer('Still "Deskpilot Fixture".')]);
    await agent.ask('what is the volume?', target);
    await expect(agent.ask('and now?', target)).resolves.toMatchObject({ text: 'Still 50.' });
    await agent.ask('what is the window title?', target);
    // Same words, same UI state, but after another question: the model must answer it.
    const followUp = await agent.ask('and now?', target);
    expect(followUp).toMatchObject({ text: 'Still "Deskpilot Fixture".' });
    expect(followUp).not.toHaveProperty('cached');
    expect(provider.requests).toHaveLength(4);
  });

  it('replays a question asked again right after its answer, any number of times, until the first answer expires', async () => {
    const { agent, provider } = makeAgent([answer('A window.'), answer('Fresh.')]);
    await agent.ask('what is here?', target);
    clock.time += 1000;
    await expect(agent.ask('what is here?', target)).resolves.toMatchObject({ text: 'A window.', cached: true });
    await expect(agent.ask('what is here?', target)).resolves.toMatchObject({ text: 'A window.', cached: true });
    expect(provider.requests).toHaveLength(1);
    // The copies made by the repeats are as old as the first answer.
    clock.time += RESPONSE_CACHE_TTL_MS - 1000;
    await expect(agent.ask('what is here?', target)).resolves.toMatchObject({ text: 'Fresh.' });
  });

  it('misses when the UI state changed', async () => {
    const { agent, provider } = makeAgent([answer('Volume 50'), answer('Volume 70')]);
    await agent.ask('what is the volume?', target);
    platform.app(FIXTURE_PID).get('slider').value = 70;
    await expect(agent.ask('what is the volume?', target)).resolves.toMatchObject({ text: 'Volume 70' });
    expect(provider.requests).toHaveLength(2);
    expect(events.at(-1)).not.toHaveProperty('cached');
  });

  it('expires after 5 minutes', async () => {
    const { agent, provider } = makeAgent([answer('one'), answer('two')]);
    await agent.ask('q', target);
    clock.time += RESPONSE_CACHE_TTL_MS - 1;
    await expect(agent.ask('q', target)).resolves.toMatchObject({ text: 'one', cached: true });
    clock.time += 1;
    await expect(agent.ask('q', target)).resolves.toMatchObject({ text: 'two' });
    expect(provider.requests).toHaveLength(2);
  });

  it('caches answers that only read, but never ones that acted', async () => {
    const read: ScriptedTurn = [toolCall('r1', 'ui_find', { role: 'button' }), finish('tool_calls')];
    const act: ScriptedTurn = [toolCall('c1', 'ui_action', { action: 'click', id: 'nope' }), finish('tool_calls')];
    const { agent, provider } = makeAgent([read, answer('found'), act, answer('clicked'), act, answer('clicked again')], {
      buildContext: () => Promise.resolve('same UI'),
    });
    await agent.ask('find the buttons', target);
    await expect(agent.ask('find the buttons', target)).resolves.toMatchObject({ text: 'found', cached: true });
    await agent.ask('click it', target);
    await expect(agent.ask('click it', target)).resolves.toMatchObject({ text: 'clicked again' });
    expect(provider.requests).toHaveLength(6);
  });

  it('never caches an error, and can be turned off', async () => {
    const failure = new DeskpilotError('PROVIDER_SERVER', 'boom');
    const { agent, provider } = makeAgent([[{ type: 'throw', error: failure }], answer('ok')]);
    await expect(agent.ask('q', target)).rejects.toMatchObject({ code: 'PROVIDER_SERVER' });
    await expect(agent.ask('q', target)).resolves.toMatchObject({ text: 'ok' });
    expect(provider.requests).toHaveLength(2);

    const off = makeAgent([answer('x'), answer('y')], { cache: false });
    await off.agent.ask('q', target);
    await expect(off.agent.ask('q', target)).resolves.toMatchObject({ text: 'y' });
  });

  it("never replays another model's answer after a switch, and skips the cache when the model cannot be named", async () => {
    const { agent, provider } = makeAgent([answer('From A.'), answer('From B.'), answer('From B again.')]);
    let model = 'https://a/v1 model-a';
    provider.identity = () => Promise.resolve(model);
    await agent.ask('what is here?', target);
    await expect(agent.ask('what is here?', target)).resolves.toMatchObject({ text: 'From A.', cached: true });
    model = 'https://a/v1 model-b';
    const switched = await agent.ask('what is here?', target);
    expect(switched).toMatchObject({ text: 'From B.' });
    expect(switched).not.toHaveProperty('cached');
    expect(provider.requests).toHaveLength(2);

    provider.identity = () => Promise.reject(new DeskpilotError('PROVIDER_CONFIG', 'no model configured'));
    await expect(agent.ask('what is here?', target)).resolves.toMatchObject({ text: 'From B again.' });
    expect(provider.requests).toHaveLength(3);
  });

  it('does not cache an iteration-limit answer', async () => {
    const loop: ScriptedTurn = [toolCall('l', 'ui_apps', {}), finish('tool_calls')];
    const { agent, provider } = makeAgent([loop, loop, loop, answer('real')], { maxIterations: 2 });
    await expect(agent.ask('q', target)).resolves.toMatchObject({ reason: 'iteration_limit' });
    await expect(agent.ask('q', target)).resolves.toMatchObject({ text: 'real' });
    expect(provider.requests).toHaveLength(4);
  });
});

describe('Agent history compaction', () => {
  /** Four plain Q/A turns and one tool turn: 12 messages, over the threshold of 10. */
  async function longConversation(agent: Agent): Promise<void> {
    for (let index = 1; index <= 4; index += 1) await agent.ask(`question ${index}`, target);
    await agent.ask('list the apps', target);
  }
  const longTurns = (): ScriptedTurn[] => [
    ...[1, 2, 3, 4].map((index) => answer(`answer ${index}`)),
    [toolCall('t1', 'ui_apps', {}), finish('tool_calls')],
    answer('apps listed'),
  ];

  it('summarizes the old turns before the next ask and keeps the recent ones intact', async () => {
    const { agent, provider } = makeAgent([...longTurns(), answer('the user asked questions 1 to 4'), answer('final')], {
      buildContext: () => Promise.resolve('ui'),
    });
    await longConversation(agent);
    const before = agent.history();
    expect(before).toHaveLength(12);
    const recent = before.slice(-4);
    await expect(agent.ask('next', target)).resolves.toMatchObject({ text: 'final' });

    const summaryRequest = provider.requests[6]?.messages ?? [];
    expect(summaryRequest[0]).toEqual({ role: 'system', content: SUMMARIZE_PROMPT });
    const transcript = String(summaryRequest[1]?.content);
    for (const index of [1, 2, 3, 4]) expect(transcript).toContain(`User: question ${index}`);
    expect(transcript).toContain('Assistant: answer 4');
    expect(transcript).not.toContain('list the apps');

    const after = agent.history();
    expect(after.length).toBeLessThan(before.length);
    expect(after[0]).toEqual({ role: 'user', content: `${SUMMARY_PREFIX}\n${quoteUiData('the user asked questions 1 to 4')}` });
    expect(after).toEqual([after[0], ...recent, { role: 'user', content: 'next' }, { role: 'assistant', content: 'final' }]);
    expect(roles(recent)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expectValidRoles(after);
    // The answering request carries the summary, then the kept turns, and no events were added for the summary.
    const finalRequest = provider.requests[7]?.messages ?? [];
    expect(finalRequest[1]).toEqual(after[0]);
    expectValidRoles(finalRequest);
    expect(events.filter((event) => event.askId === 'ask-6').map((event) => event.type)).toEqual(['ask', 'ai_request', 'ai_chunk', 'ai_response', 'done']);
  });

  it('keeps a tool call and its results together when the split lands in a tool turn', async () => {
    const { agent } = makeAgent(
      [
        answer('a1'),
        [toolCall('x1', 'ui_apps', {}), finish('tool_calls')],
        [toolCall('x2', 'ui_apps', {}), toolCall('x3', 'ui_apps', {}), finish('tool_calls')],
        [toolCall('x4', 'ui_apps', {}), finish('tool_calls')],
        answer('a2'),
        answer('summary'),
        answer('a3'),
      ],
      { buildContext: () => Promise.resolve('ui'), compaction: { threshold: 10, keepRecent: 6 } },
    );
    await agent.ask('one', target);
    await agent.ask('two', target);
    expect(agent.history()).toHaveLength(11);
    await agent.ask('three', target);
    const after = agent.history();
    expect(after[0]?.content).toContain('summary');
    expectValidRoles(after);
  });

  it('keeps the whole history when summarization fails, with no error event', async () => {
    const { agent, provider } = makeAgent([...longTurns(), [{ type: 'throw', error: new DeskpilotError('PROVIDER_SERVER', 'down') }], answer('final')], {
      buildContext: () => Promise.resolve('ui'),
    });
    await longConversation(agent);
    const before = agent.history();
    await expect(agent.ask('next', target)).resolves.toMatchObject({ text: 'final' });
    expect(agent.history()).toEqual([...before, { role: 'user', content: 'next' }, { role: 'assistant', content: 'final' }]);
    expect(events.some((event) => event.type === 'error')).toBe(false);
    expect(provider.requests).toHaveLength(8);
  });

  it('stop() during summarization ends the ask as stopped and keeps the history', async () => {
    let summarizing: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (summarizing = resolve));
    // The summary never comes by itself: only the stop can end that stream.
    const stall = { type: 'delay' as const, ms: Infinity, reached: () => summarizing() };
    const { agent } = makeAgent([...longTurns(), [stall, text('late summary'), finish()], answer('after')], {
      buildContext: () => Promise.resolve('ui'),
    });
    await longConversation(agent);
    const before = agent.history();
    const pending = agent.ask('next', target);
    await reached;
    agent.stop();
    await expect(pending).resolves.toMatchObject({ stopped: true, reason: 'stopped' });
    expect(agent.history()).toEqual(before);
    expect(events.some((event) => event.type === 'error')).toBe(false);
  });

  it('does not compact at 10 messages or fewer, or when turned off', async () => {
    const turns = [1, 2, 3, 4, 5, 6].map((index) => answer(`a${index}`));
    const { agent, provider } = makeAgent(turns, { buildContext: () => Promise.resolve('ui') });
    for (let index = 1; index <= 6; index += 1) await agent.ask(`q${index}`, target);
    expect(provider.requests).toHaveLength(6);
    expect(agent.history()).toHaveLength(12);

    const off = makeAgent([...turns, answer('a7')], { buildContext: () => Promise.resolve('ui'), compaction: false });
    for (let index = 1; index <= 7; index += 1) await off.agent.ask(`q${index}`, target);
    expect(off.provider.requests).toHaveLength(7);
    expect(off.agent.history()).toHaveLength(14);
  });
});

describe('Agent.restore', () => {
  it('carries a saved conversation into a new Agent, which sends it to the model', async () => {
    const first = makeAgent([answer('It is a notes app.')], { cache: false });
    await first.agent.ask('What app is this?', target);
    const saved = first.agent.history();

    const second = makeAgent([answer('Yes.')], { cache: false });
    second.agent.restore(saved);
    saved.length = 0; // the Agent keeps its own copy
    await second.agent.ask('Are you sure?', target);
    expect(roles(second.agent.history())).toEqual(['user', 'assistant', 'user', 'assistant']);
    const sent = second.provider.requests[0]?.messages ?? [];
    expect(sent.some((message) => message.role === 'assistant' && message.content === 'It is a notes app.')).toBe(true);
  });
});
