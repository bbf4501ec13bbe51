import { describe, expect, it } from 'vitest';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import { FIXTURE_PID, FakePlatform } from '../../platform/fake/fake-platform';
import { formatWorkflow, parseWorkflow } from '../load';
import { resolveValues } from '../params';
import { runWorkflow } from '../runner';
import { DemonstrationRecorder, type DemoEvent } from './demonstration';
import { elementAt } from './hit-test';

/** Plays one user event on the fake desktop and hands it to the recorder, as an input source would. */
async function user(platform: FakePlatform, recorder: DemonstrationRecorder, event: DemoEvent, typed?: string): Promise<void> {
  const pushed = recorder.push(event);
  if (event.kind === 'button') await platform.input.click({ x: event.x, y: event.y });
  else if (typed !== undefined) await platform.input.typeText(typed);
  else await platform.input.pressKey(event.key, event.modifiers);
  await pushed;
}

describe('DemonstrationRecorder', () => {
  it('records clicks by the element under the pointer and typing as one parameterized set_value, then replays with new values', async () => {
    const platform = new FakePlatform();
    const clock = new FakeClock();
    const recorder = new DemonstrationRecorder({ engine: new ActionEngine({ platform, clock }), pid: FIXTURE_PID, clock });
    await recorder.start();
    // The click lands first and the recorder reads the tree after it; typing keys come next.
    await platform.input.click({ x: 30, y: 150 });
    await recorder.push({ kind: 'button', x: 30, y: 150 });
    for (const char of 'Ada') await user(platform, recorder, { kind: 'key', key: char.toLowerCase(), modifiers: char === 'A' ? ['shift'] : [] }, char);
    await user(platform, recorder, { kind: 'button', x: 30, y: 70 });
    await platform.input.click({ x: 30, y: 190 });
    await recorder.push({ kind: 'button', x: 30, y: 190 });
    for (const char of 'pw') await user(platform, recorder, { kind: 'key', key: char, modifiers: [] }, char);
    const workflow = parseWorkflow(formatWorkflow(await recorder.finish('demo', { name: 'Deskpilot Fixture' })));

    expect(workflow.steps.map((step) => step.action)).toEqual(['set_value', 'click', 'set_value']);
    expect(workflow.steps[0]).toMatchObject({ target: { role: 'textfield', name: 'Name' }, value: '{{name}}', expect: { value: '{{name}}' } });
    expect(workflow.steps[1]).toMatchObject({ target: { role: 'checkbox', name: 'Enable feature' }, expect: { states: { checked: true } } });
    expect(workflow.parameters).toEqual({ name: { description: 'Name', default: 'Ada' }, password: { description: 'Password (secret)', secret: true } });
    expect(formatWorkflow(workflow)).not.toContain('pw"');

    const fresh = new FakePlatform();
    const given = { name: 'Grace', password: 'hunter2' };
    const report = await runWorkflow(workflow, {
      engine: new ActionEngine({ platform: fresh, clock }),
      platform: fresh,
      pid: FIXTURE_PID,
      values: resolveValues(workflow, given),
      given,
      clock,
    });
    expect(report.status).toBe('completed');
    expect(fresh.app(FIXTURE_PID).get('name').value).toBe('Grace');
    expect(fresh.app(FIXTURE_PID).get('toggle').checked).toBe(true);
  });

  it('records a click that ends the app as one that expects it to exit', async () => {
    const platform = new FakePlatform();
    const clock = new FakeClock();
    const recorder = new DemonstrationRecorder({ engine: new ActionEngine({ platform, clock }), pid: FIXTURE_PID, clock });
    await recorder.start();
    platform.kill(FIXTURE_PID);
    await recorder.push({ kind: 'button', x: 30, y: 30 });
    const workflow = await recorder.finish('quit', {});
    expect(workflow.steps).toEqual([
      expect.objectContaining({ action: 'click', target: expect.objectContaining({ role: 'button' }), expect: { appExited: true } }),
    ]);
  });

  it('skips a click on nothing, and says so', async () => {
    const platform = new FakePlatform();
    const clock = new FakeClock();
    const recorder = new DemonstrationRecorder({ engine: new ActionEngine({ platform, clock }), pid: FIXTURE_PID, clock });
    await recorder.start();
    await user(platform, recorder, { kind: 'button', x: 790, y: 590 });
    expect(recorder.notes[0]).toMatch(/landed on nothing/);
    const workflow = await recorder.finish('empty', {});
    expect(workflow.steps).toEqual([]);
  });
});

describe('elementAt', () => {
  it('climbs from a label to the button around it', () => {
    const node = (id: string, role: 'button' | 'label' | 'window', children: never[] = [], y = 0) => ({
      id,
      role,
      platformRole: role,
      name: id,
      states: { enabled: true, focused: false },
      actions: [],
      bounds: { x: 0, y, width: 100, height: 100 },
      children,
    });
    const tree = node('w', 'window', [node('b', 'button', [node('l', 'label') as never]) as never]);
    expect(elementAt(tree as never, 10, 10)?.id).toBe('b');
    expect(elementAt(tree as never, 500, 500)).toBeUndefined();
  });
});
