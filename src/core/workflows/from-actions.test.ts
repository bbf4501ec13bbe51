import { describe, expect, it } from 'vitest';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { workflowFromActions, parameterName } from './from-actions';
import { formatWorkflow, parseWorkflow } from './load';
import { resolveValues } from './params';
import { RecordingEngine } from './recording-engine';
import { runWorkflow } from './runner';

async function idOf(engine: ActionEngine, name: string): Promise<string> {
  const { root } = await engine.observe(FIXTURE_PID);
  return findNodes(root, { name, limit: 1 })[0]?.node.id ?? '';
}

describe('a workflow from verified actions', () => {
  it("keeps verified actions as steps, offers the question's values as parameters, and replays on a fresh app with new ones", async () => {
    const platform = new FakePlatform();
    const engine = new RecordingEngine({ platform, clock: new FakeClock() });
    await engine.run(FIXTURE_PID, { action: 'set_value', id: await idOf(engine, 'Name'), value: 'Grace Hopper' });
    await engine.run(FIXTURE_PID, { action: 'click', id: await idOf(engine, 'Enable feature') });
    await engine.run(FIXTURE_PID, { action: 'set_value', id: await idOf(engine, 'Password'), value: 'hunter2' });
    // Failed and unverified actions are not steps.
    await engine.run(FIXTURE_PID, { action: 'click', id: 'zzzzz' });
    await engine.run(FIXTURE_PID, { action: 'set_value', id: await idOf(engine, 'Name'), value: 'Grace Hopper' });
    expect(engine.actions).toHaveLength(3);

    const workflow = parseWorkflow(
      formatWorkflow(
        workflowFromActions(engine.actions, { name: 'sign up', question: 'sign up as Grace Hopper with my password', app: { name: 'Deskpilot Fixture' } }),
      ),
    );
    expect(workflow.parameters).toEqual({
      name: { description: 'Name (from the question)', default: 'Grace Hopper' },
      password: { description: 'Password (secret)', secret: true },
    });
    expect(workflow.steps.map((step) => step.action)).toEqual(['set_value', 'click', 'set_value']);
    expect(workflow.steps[0]).toMatchObject({
      value: '{{name}}',
      expect: { value: '{{name}}' },
      target: { role: 'textfield', name: 'Name', window: { title: 'Deskpilot Fixture' } },
    });
    expect(workflow.steps[1]).toMatchObject({ expect: { states: { checked: true } } });
    expect(formatWorkflow(workflow)).not.toContain('hunter2');
    // A password the user wrote in the question stays out of the description that quotes it.
    const quoted = workflowFromActions(engine.actions, { name: 'sign up', question: 'sign up as Grace Hopper, password hunter2', app: {} });
    expect(quoted.description).toBe('Recorded from: sign up as Grace Hopper, password •••');

    const fresh = new FakePlatform();
    const given = { name: 'Linus', password: 's3cret' };
    const report = await runWorkflow(workflow, {
      engine: new ActionEngine({ platform: fresh, clock: new FakeClock() }),
      platform: fresh,
      pid: FIXTURE_PID,
      values: resolveValues(workflow, given),
      given,
      clock: new FakeClock(),
    });
    expect(report.status).toBe('completed');
    expect(fresh.app(FIXTURE_PID).get('name').value).toBe('Linus');
    expect(fresh.app(FIXTURE_PID).get('toggle').checked).toBe(true);
    expect(fresh.app(FIXTURE_PID).get('password').value).toBe('s3cret');
  });

  it('names parameters after fields, uniquely', () => {
    expect(parameterName('E-mail address', new Set())).toBe('e_mail_address');
    expect(parameterName('Name', new Set(['name']))).toBe('name_2');
    expect(parameterName('2nd line', new Set())).toBe('value_2nd_line');
  });
});
