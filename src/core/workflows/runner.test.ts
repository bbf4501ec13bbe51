import { describe, expect, it } from 'vitest';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { FixtureApp } from '../platform/fake/fixture-app';
import type { ApprovalRequest } from '../agent/safety';
import { parseWorkflow } from './load';
import { resolveValues } from './params';
import { runWorkflow, type RunOptions } from './runner';
import type { Workflow } from './schema';

const FORM = [{ role: 'group' as const, name: '' }];
const WINDOW = { role: 'window' as const, title: 'Deskpilot Fixture' };

function workflow(steps: Workflow['steps'], parameters: Workflow['parameters'] = { name: { description: 'who', default: 'Ada' } }): Workflow {
  return parseWorkflow(JSON.stringify({ format: 'deskpilot-workflow', version: 1, name: 'fill', app: { name: 'Deskpilot Fixture' }, parameters, steps }));
}

const FILL = workflow([
  {
    action: 'set_value',
    intent: 'type the name',
    target: { window: WINDOW, role: 'textfield', name: 'Name', path: FORM },
    value: '{{name}}',
    expect: { value: '{{name}}' },
  },
  {
    action: 'click',
    intent: 'enable it',
    target: { window: WINDOW, role: 'checkbox', name: 'Enable feature', path: FORM },
    expect: { states: { checked: true } },
  },
]);

function setup(): { platform: FakePlatform; app: FixtureApp; clock: FakeClock; options: (extra?: Partial<RunOptions>) => RunOptions } {
  const platform = new FakePlatform();
  const clock = new FakeClock();
  const engine = new ActionEngine({ platform, clock });
  const app = platform.running.get(FIXTURE_PID) as FixtureApp;
  return {
    platform,
    app,
    clock,
    options: (extra = {}) => ({ engine, platform, pid: FIXTURE_PID, clock, values: resolveValues(FILL, {}), waitMs: 1_000, ...extra }),
  };
}

describe('runWorkflow', () => {
  it('replays every step, verified, by exact identity', async () => {
    const { app, options } = setup();
    const report = await runWorkflow(FILL, options({ values: { name: 'Grace' } }));
    expect(report.status).toBe('completed');
    expect(report.steps.map((step) => [step.status, step.rung])).toEqual([
      ['ok', 'identity'],
      ['ok', 'identity'],
    ]);
    expect(app.get('name').value).toBe('Grace');
    expect(app.get('toggle').checked).toBe(true);
  });

  it('finds fields that were reordered, and ignores a look-alike sibling', async () => {
    const { app, options } = setup();
    app.widgets.reverse();
    app.widgets.push({
      key: 'decoy',
      role: 'textfield',
      name: 'Name (optional)',
      bounds: { x: 20, y: 400, width: 200, height: 28 },
      value: '',
      settable: true,
      actions: [],
    });
    const report = await runWorkflow(FILL, options());
    expect(report.status).toBe('completed');
    expect(app.get('name').value).toBe('Ada');
    expect(app.get('decoy').value).toBe('');
  });

  it('relaxes the window when it was renamed, and says so', async () => {
    const { platform, options } = setup();
    const renamed = new FixtureApp('*Deskpilot Fixture (edited)');
    platform.running.set(FIXTURE_PID, renamed);
    const report = await runWorkflow(FILL, options());
    expect(report.status).toBe('completed');
    expect(report.steps[0]?.rung).toBe('relaxed');
    expect(renamed.get('name').value).toBe('Ada');
  });

  it('halts when the target is gone, after waiting for it by the clock, and runs nothing after', async () => {
    const { app, clock, options } = setup();
    app.widgets.splice(app.widgets.indexOf(app.get('name')), 1);
    const report = await runWorkflow(FILL, options());
    expect(report.status).toBe('halted');
    expect(report.halt).toMatchObject({ step: 1, code: 'not_found', lookedFor: expect.stringContaining('textfield "Name"') });
    expect(report.halt?.candidates.length).toBeGreaterThan(0);
    expect(report.steps.map((step) => step.status)).toEqual(['halted', 'not_run']);
    expect(app.get('toggle').checked).toBe(false);
    // It polled for the whole bound (1 s at 100 ms), not once and not forever.
    expect(clock.sleeps.length).toBeGreaterThanOrEqual(9);
    expect(clock.time).toBeGreaterThanOrEqual(1_000);
  });

  it('halts on two elements that fit equally, never picking one', async () => {
    const { app, options } = setup();
    app.widgets.push({ ...app.get('name'), key: 'twin', bounds: { x: 20, y: 500, width: 200, height: 28 } });
    const report = await runWorkflow(FILL, options());
    expect(report.halt).toMatchObject({ step: 1, code: 'ambiguous' });
    expect(report.halt?.candidates).toHaveLength(2);
    expect(app.get('name').value).toBe('');
    expect(app.get('twin').value).toBe('');
  });

  it('uses the ordinal only when the recording saw the same siblings', async () => {
    const { app, options } = setup();
    app.widgets.push({ ...app.get('name'), key: 'twin', value: '', bounds: { x: 20, y: 500, width: 200, height: 28 } });
    const second = workflow([
      {
        action: 'set_value',
        target: { window: WINDOW, role: 'textfield', name: 'Name', path: FORM, ordinal: { index: 1, of: 2 } },
        value: 'Second',
        expect: { value: 'Second' },
      },
    ]);
    const report = await runWorkflow(second, options({ values: {} }));
    expect(report.status).toBe('completed');
    expect(app.get('twin').value).toBe('Second');
    expect(app.get('name').value).toBe('');
  });

  it('halts when the recorded effect does not appear', async () => {
    const { options } = setup();
    const wrong = workflow([{ action: 'set_value', target: { role: 'slider', name: 'Volume' }, value: 500, expect: { value: 500 } }], {});
    const report = await runWorkflow(wrong, options({ values: {} }));
    expect(report.halt).toMatchObject({ step: 1, code: 'effect_missing', message: expect.stringContaining('value is "100", expected "500"') });
  });

  it('asks before a risky step unless the workflow is trusted, and a denial halts', async () => {
    const { app, options } = setup();
    app.get('button').name = 'Delete all';
    const risky = workflow([{ action: 'click', target: { role: 'button', name: 'Delete all' } }], {});
    const asked: ApprovalRequest[] = [];
    const denied = await runWorkflow(risky, options({ values: {}, decide: (request) => (asked.push(request), Promise.resolve('deny')) }));
    expect(denied.halt).toMatchObject({ code: 'denied' });
    expect(asked[0]?.plan).toMatchObject({ verb: 'click', target: 'Delete all' });
    expect(app.clicks).toBe(0);
    const unattended = await runWorkflow(risky, options({ values: {} }));
    expect(unattended.halt?.code).toBe('approval_needed');
    const trusted = await runWorkflow(risky, options({ values: {}, trusted: true }));
    expect(trusted.status).toBe('completed');
    expect(app.clicks).toBe(1);
  });

  it('types into a secret field only what the user gave for this run', async () => {
    const { app, options } = setup();
    const login = workflow([{ action: 'set_value', target: { role: 'textfield', name: 'Password' }, value: '{{password}}' }], { password: { secret: true } });
    const refused = await runWorkflow(login, options({ values: { password: 'hunter2' }, trusted: true }));
    expect(refused.halt?.code).toBe('refused');
    expect(app.get('password').value).toBe('');
    const given = await runWorkflow(login, options({ values: { password: 'hunter2' }, given: { password: 'hunter2' }, trusted: true }));
    expect(given.halt?.code).toBeUndefined();
    expect(app.get('password').value).toBe('hunter2');
  });

  it('plans without acting on a dry run', async () => {
    const { app, options } = setup();
    const report = await runWorkflow(FILL, options({ dryRun: true }));
    expect(report.status).toBe('planned');
    expect(report.steps.map((step) => step.status)).toEqual(['planned', 'planned']);
    expect(app.get('name').value).toBe('');
    expect(app.get('toggle').checked).toBe(false);
  });

  it('waits for a window step within its bound', async () => {
    const { options } = setup();
    const wait = workflow([{ action: 'wait_window', window: { role: 'dialog', titlePattern: 'Save*' }, timeoutMs: 300 }], {});
    const report = await runWorkflow(wait, options({ values: {} }));
    expect(report.halt).toMatchObject({ code: 'window_missing', message: expect.stringContaining('300 ms') });
  });

  it('waits for a value on a wait step, and presses keys on their target', async () => {
    const { app, clock, options } = setup();
    const steps = workflow(
      [
        { action: 'key', target: { role: 'textfield', name: 'Name' }, key: 'a', modifiers: ['ctrl'] },
        { action: 'type', target: { role: 'textfield', name: 'Name' }, text: 'Lin', expect: { value: 'Lin' } },
        { action: 'wait', target: { role: 'textfield', name: 'Name' }, expect: { value: 'Linus' }, timeoutMs: 500 },
      ],
      {},
    );
    const report = await runWorkflow(steps, options({ values: {} }));
    expect(report.halt).toMatchObject({ step: 3, code: 'effect_missing', message: expect.stringContaining('expected "Linus"') });
    expect(app.get('name').value).toBe('Lin');
    expect(clock.time).toBeGreaterThanOrEqual(500);
  });

  it('keeps a screenshot at a halt', async () => {
    const { app, options } = setup();
    app.widgets.splice(app.widgets.indexOf(app.get('name')), 1);
    const report = await runWorkflow(FILL, options({ screenshot: () => Promise.resolve('/tmp/halt.png') }));
    expect(report.halt?.screenshot).toBe('/tmp/halt.png');
  });
});
