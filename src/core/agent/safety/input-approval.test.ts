import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../shared/agent-events';
import { ActionEngine } from '../../actions/engine';
import { keepDevices } from '../../actions/keep-devices';
import { FakeClock } from '../../clock';
import { FIXTURE_PID, FakePlatform } from '../../platform/fake/fake-platform';
import { findNodes } from '../../ui/query';
import { answer, finish, toolCall, type ScriptedTurn } from '../fake-provider';
import { scriptedAgent } from '../test-agent';
import { inputPlan } from './input-plan';
import type { ApprovalDecision, ApprovalRequest } from './types';

let platform: FakePlatform;
let engine: ActionEngine;
let events: AgentEvent[];
let asked: ApprovalRequest[];
const settings = { keepDevices: true };

beforeEach(() => {
  platform = new FakePlatform();
  settings.keepDevices = true;
  engine = new ActionEngine({ platform, clock: new FakeClock(), askBeforeInput: (request) => keepDevices(settings, request) });
  events = [];
  asked = [];
});

const call = (id: string, args: unknown): ScriptedTurn => [toolCall(id, 'ui_action', args), finish('tool_calls')];

async function idOf(name: string, role: string): Promise<string> {
  const node = findNodes((await engine.observe(FIXTURE_PID)).root, { name, role })[0]?.node;
  if (node === undefined) throw new Error(`no ${role} ${name}`);
  return node.id;
}

function agentAnswering(turns: ScriptedTurn[], answers: ApprovalDecision[] | undefined) {
  const queue = [...(answers ?? [])];
  return scriptedAgent(turns, {
    platform,
    events,
    engine,
    cache: false,
    // `auto`: the gate itself asks nothing, so every question here is the input's own.
    approvalPolicy: 'auto',
    ...(answers === undefined
      ? {}
      : {
          decide: (request: ApprovalRequest) => {
            asked.push(request);
            return Promise.resolve(queue.shift() ?? 'deny');
          },
        }),
  }).agent;
}

const results = () => events.filter((event): event is Extract<AgentEvent, { type: 'tool_result' }> => event.type === 'tool_result');

describe('"Never take my pointer or keyboard" in the agent', () => {
  it('asks the user about exactly the input step, through the approval flow, and runs it when allowed', async () => {
    const id = await idOf('Name', 'textfield');
    const agent = agentAnswering([call('c1', { action: 'click', id }), answer('Clicked.')], ['allow_once']);
    await agent.ask('click the name field', { pid: FIXTURE_PID });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      callId: 'c1',
      tool: 'ui_action',
      pid: FIXTURE_PID,
      why: { code: 'takesDevices', values: { via: 'click' } },
      plan: { verb: 'click', target: 'Name' },
    });
    expect(asked[0]?.reason).toMatch(/pointer or keyboard/);
    // Announced like every approval, so the window draws its card.
    expect(events.filter((event) => event.type === 'approval_request')).toHaveLength(1);
    expect(results()[0]).toMatchObject({ success: true });
    expect(platform.inputLog.some((entry) => entry.startsWith('click'))).toBe(true);
  });

  it('sends nothing when the user says no, and tells the model not to retry', async () => {
    const id = await idOf('Name', 'textfield');
    const agent = agentAnswering([call('c1', { action: 'click', id }), answer('I left it.')], ['deny']);
    await agent.ask('click the name field', { pid: FIXTURE_PID });
    expect(asked).toHaveLength(1);
    expect(results()[0]).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED' } });
    expect(results()[0]?.message).toMatch(/said no/);
    expect(platform.inputLog).toEqual([]);
  });

  it('remembers "for this app" for the rest of the conversation', async () => {
    const id = await idOf('Name', 'textfield');
    const agent = agentAnswering([call('c1', { action: 'click', id }), call('c2', { action: 'click', id }), answer('Twice.')], ['allow_app']);
    await agent.ask('click the name field twice', { pid: FIXTURE_PID });
    expect(asked).toHaveLength(1);
    expect(results().map((each) => each.success)).toEqual([true, true]);
  });

  it('asks nothing for steps with an accessible path, nor when the setting is off', async () => {
    const check = await idOf('Enable feature', 'checkbox');
    const field = await idOf('Name', 'textfield');
    settings.keepDevices = false;
    const agent = agentAnswering([call('c1', { action: 'click', id: check }), call('c2', { action: 'click', id: field }), answer('Done.')], []);
    await agent.ask('tick it and click the field', { pid: FIXTURE_PID });
    expect(asked).toEqual([]);
    expect(results().map((each) => each.success)).toEqual([true, true]);
  });

  it('refuses, with nothing sent, when nobody can approve (no decider)', async () => {
    const id = await idOf('Name', 'textfield');
    const agent = agentAnswering([call('c1', { action: 'click', id }), answer('Cannot.')], undefined);
    await agent.ask('click the name field', { pid: FIXTURE_PID });
    expect(results()[0]).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED' } });
    expect(results()[0]?.message).toMatch(/nobody can be asked/);
    expect(platform.inputLog).toEqual([]);
  });
});

describe('inputPlan', () => {
  it('says what the input does in the app’s names, and masks text bound for a secret field', () => {
    const target = { id: 'p1', role: 'textfield', name: 'Password', secret: true };
    expect(inputPlan({ pid: 1, via: 'keys', action: 'type', target, value: 'hunter2' })).toEqual({
      plan: { verb: 'type', target: 'Password', value: '•••' },
      summary: JSON.stringify({ action: 'type', via: 'keys', id: 'p1', value: '•••' }),
    });
    expect(inputPlan({ pid: 1, via: 'keys', action: 'key', value: 'ctrl+s' }).plan).toEqual({ verb: 'key', value: 'ctrl+s' });
    expect(inputPlan({ pid: 1, via: 'click', action: 'click', target: { id: 'x', role: 'button', name: ' ', secret: false } }).plan).toEqual({
      verb: 'click',
      target: 'button',
    });
  });
});
