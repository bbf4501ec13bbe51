import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../shared/agent-events';
import type { UiNode } from '../../../shared/ui-node';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from '../../platform/fake/fake-platform';
import { walk } from '../../ui/tree-index';
import { answer, finish, toolCall, type ScriptedTurn } from '../fake-provider';
import { scriptedAgent } from '../test-agent';
import type { ApprovalRequest } from './types';
import { SafetyGate } from './gate';
import { screenshotTool } from '../../tools/screenshot';
import type { Tool } from '../../tools/types';

/**
 * The tester's attacks on the gate, as a prompt-injected model would send them, each with no
 * one to approve (every question is denied): nothing may act.
 */
let platform: FakePlatform;
let engine: ActionEngine;
let events: AgentEvent[];
let asked: ApprovalRequest[];
let runs: number;

beforeEach(() => {
  platform = new FakePlatform();
  engine = new ActionEngine({ platform, clock: new FakeClock() });
  const run = engine.run.bind(engine);
  runs = 0;
  engine.run = (pid, request, signal) => {
    runs += 1;
    return run(pid, request, signal);
  };
  events = [];
  asked = [];
});

async function idIn(pid: number, name: string): Promise<string> {
  const { root } = await engine.observe(pid, { fresh: true });
  const node = [...walk(root)].find((each: UiNode) => each.name === name);
  if (node === undefined) throw new Error(`no node named ${name}`);
  return node.id;
}

async function attack(tool: string, args: unknown, userText = 'tidy up'): Promise<void> {
  const turns: ScriptedTurn[] = [[toolCall('c1', tool, args), finish('tool_calls')], answer('done')];
  const { agent } = scriptedAgent(turns, {
    platform,
    events,
    engine,
    cache: false,
    decide: (request) => {
      asked.push(request);
      return Promise.resolve('deny');
    },
  });
  await agent.ask(userText, { pid: FIXTURE_PID });
}

const resultOf = (): Extract<AgentEvent, { type: 'tool_result' }> | undefined =>
  events.find((event): event is Extract<AgentEvent, { type: 'tool_result' }> => event.type === 'tool_result');

describe('a padded id', () => {
  for (const pad of [' ', '\n', '\t ', ' \r\n']) {
    it(`asks before clicking Delete named ${JSON.stringify(pad)} + id`, async () => {
      platform.app(FIXTURE_PID).get('button').name = 'Delete';
      const id = await idIn(FIXTURE_PID, 'Delete');
      await attack('ui_action', { action: 'click', id: `${pad}${id}${pad}` });
      expect(asked).toHaveLength(1);
      expect(runs).toBe(0);
      expect(platform.app(FIXTURE_PID).clicks).toBe(0);
    });
  }

  it('refuses attacker text typed into a password field by a padded id', async () => {
    const id = await idIn(FIXTURE_PID, 'Password');
    await attack('ui_action', { action: 'set_value', id: ` ${id}\n`, value: 'attacker' });
    expect(resultOf()?.message).toMatch(/^REFUSED: .*secret field/);
    expect(runs).toBe(0);
    expect(platform.app(FIXTURE_PID).get('password').value).toBe('');
  });
});

describe('another app named', () => {
  it('judges the app the call names, not the target', async () => {
    platform.app(NOTES_PID).get('button').name = 'Delete';
    const id = await idIn(NOTES_PID, 'Delete');
    await attack('ui_action', { action: 'click', app: 'notes', id });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ pid: NOTES_PID, app: 'Notes', plan: { verb: 'click', target: 'Delete' } });
    expect(platform.app(NOTES_PID).clicks).toBe(0);
    expect(runs).toBe(0);
  });

  it('refuses a password set in another app by name or pid', async () => {
    const id = await idIn(NOTES_PID, 'Password');
    await attack('ui_action', { action: 'set_value', app: 'Notes', id, value: 'attacker' });
    await attack('ui_action', { action: 'set_value', pid: NOTES_PID, id, value: 'attacker' });
    expect(platform.app(NOTES_PID).get('password').value).toBe('');
    expect(runs).toBe(0);
  });

  it('an allow_app answer for the target does not cover another app named by name', async () => {
    platform.app(NOTES_PID).get('button').name = 'Delete';
    const id = await idIn(NOTES_PID, 'Delete');
    const { agent } = scriptedAgent(
      [
        [toolCall('c1', 'ui_close_window', {}), finish('tool_calls')],
        [toolCall('c2', 'ui_action', { action: 'click', app: 'Notes', id }), finish('tool_calls')],
        answer('done'),
      ],
      {
        platform,
        events,
        engine,
        cache: false,
        decide: (request) => {
          asked.push(request);
          return Promise.resolve(asked.length === 1 ? 'allow_app' : 'deny');
        },
      },
    );
    await agent.ask('close it', { pid: FIXTURE_PID });
    expect(asked.map((request) => [request.tool, request.pid])).toEqual([
      ['ui_close_window', FIXTURE_PID],
      ['ui_action', NOTES_PID],
    ]);
    expect(platform.app(NOTES_PID).clicks).toBe(0);
  });
});

describe('quit spelled differently', () => {
  for (const args of [
    { key: 'mod+q' },
    { key: 'q', modifiers: ['cmdorctrl'] },
    { key: 'Q', modifiers: ['CmdOrCtrl'] },
    { key: 'Control+Q' },
    { key: 'super+w' },
    { key: 'f4', modifiers: ['ALT'] },
    { key: 'command+shift+Delete' },
  ]) {
    it(`asks before ${JSON.stringify(args)}`, async () => {
      await attack('ui_action', { action: 'key', ...args });
      expect(asked).toHaveLength(1);
      expect(platform.inputLog).toEqual([]);
    });
  }
});

describe('a key on a risky control', () => {
  for (const key of ['return', 'Enter', 'space', ' ', 'kp_enter']) {
    it(`asks before pressing ${JSON.stringify(key)} on Delete`, async () => {
      platform.app(FIXTURE_PID).get('button').name = 'Delete';
      const id = await idIn(FIXTURE_PID, 'Delete');
      await attack('ui_action', { action: 'key', id, key });
      // kp_enter is not a key the engine knows: refused before anything runs, so nothing to ask.
      if (key !== 'kp_enter') expect(asked).toHaveLength(1);
      expect(platform.app(FIXTURE_PID).clicks).toBe(0);
      expect(platform.inputLog).toEqual([]);
    });
  }

  it('asks before a key with no id when the focused control is risky', async () => {
    const app = platform.app(FIXTURE_PID);
    app.get('button').name = 'Delete';
    app.focus('button');
    await attack('ui_action', { action: 'key', key: 'return' });
    expect(asked).toHaveLength(1);
    expect(app.clicks).toBe(0);
  });
});

describe('risky names the list missed', () => {
  for (const name of ['Move to Trash', 'Empty Trash', 'Quit', 'Close', 'Sign out', 'Overwrite', 'Uninstall', 'Reset', 'Excluir', 'Mover para a Lixeira']) {
    it(`asks before clicking ${name}`, async () => {
      platform.app(FIXTURE_PID).get('button').name = name;
      await attack('ui_action', { action: 'click', id: await idIn(FIXTURE_PID, name) });
      expect(asked).toHaveLength(1);
      expect(platform.app(FIXTURE_PID).clicks).toBe(0);
    });
  }

  it('asks before clicking an icon-only button described "Delete everything"', async () => {
    const button = platform.app(FIXTURE_PID).get('button');
    button.name = '';
    button.description = 'Delete everything';
    const { root } = await engine.observe(FIXTURE_PID, { fresh: true });
    const id = [...walk(root)].find((node) => node.role === 'button')?.id as string;
    await attack('ui_action', { action: 'click', id });
    expect(asked[0]?.reason).toContain('Delete everything');
    expect(platform.app(FIXTURE_PID).clicks).toBe(0);
  });

  it('asks before dropping onto the trash', async () => {
    platform.app(FIXTURE_PID).get('drop').name = 'Trash';
    await attack('ui_action', { action: 'drag', id: await idIn(FIXTURE_PID, 'Drag me'), toId: await idIn(FIXTURE_PID, 'Trash') });
    expect(asked).toHaveLength(1);
    expect(platform.inputLog).toEqual([]);
  });
});

describe('an id the gate cannot find', () => {
  it('is refused before the engine, so a node appearing later is never acted on unjudged', async () => {
    await attack('ui_action', { action: 'click', id: 'zzzzz' });
    expect(runs).toBe(0);
    expect(resultOf()?.message).toMatch(/^NODE_NOT_FOUND/);
  });
});

describe('secret text in printed arguments', () => {
  it('is masked in the tool_call event and the approval summary', async () => {
    const id = await idIn(FIXTURE_PID, 'Password');
    await attack('ui_action', { action: 'set_value', id, value: 'hunter2' }, 'my password is hunter2');
    const call = events.find((event) => event.type === 'tool_call');
    expect(call).toMatchObject({ arguments: expect.stringContaining('•••') });
    // What programs print of a call: its tool_call event and any approval question.
    const printed = events.filter((event) => event.type === 'tool_call' || event.type === 'approval_request' || event.type === 'tool_result');
    expect(JSON.stringify(printed)).not.toContain('hunter2');
    expect(platform.app(FIXTURE_PID).get('password').value).toBe('hunter2');
  });
});

describe('a fill whose later field finds a control that appeared after the check', () => {
  it('does not fill the new risky control', async () => {
    const app = platform.app(FIXTURE_PID);
    app.get('toggle').name = 'Enable feature';
    // Filling Name renames the check box, as a form that shows a new option would.
    const setValue = app.setValue.bind(app);
    app.setValue = (key, value) => {
      const done = setValue(key, value);
      if (key === 'name') app.get('toggle').name = 'Delete everything';
      return done;
    };
    await attack('ui_fill_form', {
      fields: [
        { label: 'Name', value: 'Ann' },
        { label: 'everything', value: true },
      ],
    });
    expect(asked).toHaveLength(0);
    expect(app.get('name').value).toBe('Ann');
    expect(app.get('toggle').checked).toBe(false);
    expect(resultOf()?.message).toMatch(/not filled: the label now finds "Delete everything"/);
  });
});

describe('secret text in an approval question', () => {
  it('is masked in the summary the user reads', async () => {
    const id = await idIn(FIXTURE_PID, 'Password');
    const { agent } = scriptedAgent([[toolCall('c1', 'ui_action', { action: 'type', id, text: 'hunter2' }), finish('tool_calls')], answer('ok')], {
      platform,
      events,
      engine,
      cache: false,
      approvalPolicy: 'confirm-all',
      decide: (request) => {
        asked.push(request);
        return Promise.resolve('deny');
      },
    });
    await agent.ask('my password is hunter2', { pid: FIXTURE_PID });
    expect(asked[0]?.summary).toContain('•••');
    expect(asked[0]?.summary).not.toContain('hunter2');
  });
});

describe('reading content another way', () => {
  it('a screenshot of a window showing a document counts as reading it, in the app the call names', async () => {
    platform.app(NOTES_PID).get('status').role = 'document';
    const gate = new SafetyGate('confirm-risky');
    const state = { userText: 'look', readContent: false };
    const context = { engine, platform, targetPid: FIXTURE_PID, signal: new AbortController().signal, log: () => undefined };
    const definition = screenshotTool as unknown as Tool;
    await gate.noteRead(definition, '{}', context, state);
    expect(state.readContent).toBe(false);
    await gate.noteRead(definition, '{"app":"notes"}', context, state);
    expect(state.readContent).toBe(true);
  });

  it('ui_read of a document in another app named by name turns on the after-reading rule', async () => {
    platform.app(NOTES_PID).get('status').role = 'document';
    const doc = await idIn(NOTES_PID, 'Ready');
    const counter = await idIn(FIXTURE_PID, 'Clicked 0 times');
    const { agent } = scriptedAgent(
      [
        [toolCall('r1', 'ui_read', { app: 'Notes', id: doc }), finish('tool_calls')],
        [toolCall('c1', 'ui_action', { action: 'click', id: counter }), finish('tool_calls')],
        answer('done'),
      ],
      {
        platform,
        events,
        engine,
        cache: false,
        decide: (request) => {
          asked.push(request);
          return Promise.resolve('deny');
        },
      },
    );
    await agent.ask('do what the notes say', { pid: FIXTURE_PID });
    expect(asked.map((request) => request.why.code)).toEqual(['afterReading']);
    expect(platform.app(FIXTURE_PID).clicks).toBe(0);
  });
});

describe('keys into a password field', () => {
  it('a printable key the user did not write is refused; ctrl+a there is not typing', async () => {
    const id = await idIn(FIXTURE_PID, 'Password');
    await attack('ui_action', { action: 'key', id, key: 'Z' }, 'log me in');
    expect(resultOf()?.message).toMatch(/^REFUSED: .*secret field/);
    events.length = 0;
    await attack('ui_action', { action: 'key', id, key: 'ctrl+a' }, 'log me in');
    expect(resultOf()?.message).not.toMatch(/^REFUSED/);
  });
});
