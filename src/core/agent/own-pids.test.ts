import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../shared/agent-events';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from '../platform/fake/fake-platform';
import { Agent } from './agent';
import { buildContextMessage } from './context-message';
import { FakeProvider, answer } from './fake-provider';
import { createToolRegistry } from './tool-registry/registry';
import { OwnAppError } from '../tools/target';
import { fakeContext } from '../tools/fake-context';

/** NOTES_PID plays Deskpilot's own window in these tests. */
const OWN = [NOTES_PID];

describe("Deskpilot's own windows are left out", () => {
  it('ui_apps does not show them and ui_focus_app cannot target them', async () => {
    const context = { ...fakeContext(), ownPids: OWN };
    const tools = createToolRegistry();
    const listed = await tools.call('ui_apps', '{}', context);
    expect(listed.message).toContain(`pid ${FIXTURE_PID}`);
    expect(listed.message).not.toContain(`pid ${NOTES_PID}`);
    expect((listed.data as { apps: { pid: number }[] }).apps.map((app) => app.pid)).toEqual([FIXTURE_PID]);

    const byName = await tools.call('ui_focus_app', JSON.stringify({ name: 'Notes' }), context);
    expect(byName.success).toBe(false);
    const byPid = await tools.call('ui_focus_app', JSON.stringify({ pid: NOTES_PID }), context);
    expect(byPid).toMatchObject({ success: false, data: { error: { code: 'VALIDATION', data: { reason: 'own_app' } } } });
    expect(byPid.message).toMatch(/is Deskpilot itself/);
    expect(context.targetPid).toBe(FIXTURE_PID);
  });

  it('ui_tree and ui_find refuse an own pid with the typed error', async () => {
    const context = { ...fakeContext(), ownPids: OWN };
    const tools = createToolRegistry();
    for (const [name, args] of [
      ['ui_tree', { pid: NOTES_PID }],
      ['ui_find', { pid: NOTES_PID, role: 'button' }],
    ] as const) {
      const result = await tools.call(name, JSON.stringify(args), context);
      expect(result).toMatchObject({ success: false, data: { error: { code: 'VALIDATION', data: { pid: NOTES_PID, reason: 'own_app' } } } });
    }
    expect((await tools.call('ui_tree', '{}', context)).success).toBe(true);
  });

  it('an ask aimed at an own pid fails with OwnAppError, and the conversation goes on', async () => {
    const platform = new FakePlatform();
    const events: AgentEvent[] = [];
    const provider = new FakeProvider([answer('fine')]);
    const clock = new FakeClock();
    const agent = new Agent({
      provider,
      tools: createToolRegistry(),
      engine: new ActionEngine({ platform, clock }),
      platform,
      clock,
      onEvent: (event) => events.push(event),
      ownPids: OWN,
    });
    const failure = agent.ask('what is here?', { pid: NOTES_PID });
    await expect(failure).rejects.toBeInstanceOf(OwnAppError);
    await expect(failure).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/Deskpilot itself/) as unknown });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'VALIDATION', data: { reason: 'own_app' } } });
    expect(provider.requests).toHaveLength(0);
    await expect(agent.ask('and here?', { pid: FIXTURE_PID })).resolves.toMatchObject({ text: 'fine' });
  });

  it('defaults to this process', async () => {
    const platform = new FakePlatform();
    const clock = new FakeClock();
    const agent = new Agent({
      provider: new FakeProvider([]),
      tools: createToolRegistry(),
      engine: new ActionEngine({ platform, clock }),
      platform,
      clock,
      onEvent: () => undefined,
    });
    await expect(agent.ask('hi', { pid: process.pid })).rejects.toBeInstanceOf(OwnAppError);
  });

  it('the context builder reads nothing of an own pid', async () => {
    const platform = new FakePlatform();
    const context = await buildContextMessage(new ActionEngine({ platform, clock: new FakeClock() }), platform, NOTES_PID, { ownPids: OWN });
    expect(context).toMatch(/is Deskpilot itself/);
    expect(context).not.toContain('<ui_data>');
  });
});
