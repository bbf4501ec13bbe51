import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../core/agent/safety';
import { FakeClock } from '../core/clock';
import { FIXTURE_PID, FakePlatform } from '../core/platform/fake/fake-platform';
import type { FixtureApp } from '../core/platform/fake/fixture-app';
import { findNodes } from '../core/ui/query';
import { RecordingEngine } from '../core/workflows/recording-engine';
import type { WorkflowEvent } from '../shared/workflow-ipc';
import { HostWorkflows } from './workflows';

const FORM = {
  format: 'deskpilot-workflow',
  version: 1,
  name: 'fill the form',
  app: { name: 'Deskpilot Fixture' },
  parameters: { name: { description: 'who', default: 'Ada' }, password: { secret: true } },
  steps: [
    { action: 'set_value', target: { role: 'textfield', name: 'Name' }, value: '{{name}}', expect: { value: '{{name}}' } },
    { action: 'set_value', target: { role: 'textfield', name: 'Password' }, value: '{{password}}' },
    { action: 'click', target: { role: 'checkbox', name: 'Enable feature' }, expect: { states: { checked: true } } },
  ],
};

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-flows-'));
  const platform = new FakePlatform();
  const engine = new RecordingEngine({ platform, clock: new FakeClock() });
  const events: WorkflowEvent[] = [];
  const answers = new Map<string, (decision: ApprovalDecision) => void>();
  const workflows = new HostWorkflows({
    platform,
    engine,
    dir: () => dir,
    post: (event) => events.push(event),
    awaitApproval: (id) => new Promise((resolve) => answers.set(id, resolve)),
    ownPids: [process.pid],
    clock: new FakeClock(),
  });
  const finished = async (): Promise<Extract<WorkflowEvent, { type: 'finished' }>> => {
    for (let spin = 0; spin < 200; spin += 1) {
      const done = events.find((event) => event.type === 'finished' || event.type === 'failed');
      if (done?.type === 'finished') return done;
      if (done !== undefined) throw new Error(JSON.stringify(done));
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error('the run did not finish');
  };
  return { dir, platform, engine, events, answers, workflows, finished, app: platform.app(FIXTURE_PID) as FixtureApp };
}

describe('HostWorkflows', () => {
  it('lists the folder, skipping broken files by name', async () => {
    const { dir, workflows } = setup();
    writeFileSync(path.join(dir, 'weekly.json'), JSON.stringify(FORM));
    writeFileSync(path.join(dir, 'broken.json'), '{"format": "deskpilot-workflow"');
    const listed = await workflows.list();
    expect(listed.folder).toBe(dir);
    expect(listed.workflows).toEqual([
      {
        name: 'weekly',
        title: 'fill the form',
        app: 'Deskpilot Fixture',
        steps: 3,
        risky: false,
        parameters: [
          { name: 'name', description: 'who', default: 'Ada', secret: false },
          { name: 'password', secret: true },
        ],
      },
    ]);
    expect(listed.skipped.map((each) => each.file)).toEqual(['broken.json']);
  });

  it('runs on the target app with the values given, reporting each step, and never posts a secret', async () => {
    const { dir, workflows, events, finished, app, engine } = setup();
    writeFileSync(path.join(dir, 'weekly.json'), JSON.stringify(FORM));
    const { runId } = await workflows.start({ name: 'weekly', vars: { name: 'Grace', password: 'hunter2' }, pid: FIXTURE_PID });
    const done = await finished();
    expect(done.report.status).toBe('completed');
    expect(events.map((event) => event.type)).toEqual(['started', 'step', 'step', 'step', 'finished']);
    expect(events.every((event) => event.runId === runId)).toBe(true);
    expect(app.get('name').value).toBe('Grace');
    expect(app.get('password').value).toBe('hunter2');
    expect(JSON.stringify(events)).not.toContain('hunter2');
    // A run's actions are not an ask's: nothing of it can be saved as a task.
    expect(engine.actions).toEqual([]);
  });

  it('finds the app the workflow was made in by its desktop id among two of the same name, and refuses to pick by name alone', async () => {
    const { dir, platform, workflows, finished, app } = setup();
    const list = platform.apps.list.bind(platform.apps);
    // The fake's other running app, listed as a second app of the same name.
    const twin = { pid: FIXTURE_PID + 1, name: 'Deskpilot Fixture', windows: [], desktopId: 'org.example.Other.desktop' };
    platform.apps.list = async () => (await list()).map((each) => (each.pid === twin.pid ? twin : { ...each, desktopId: 'org.example.Fixture.desktop' }));
    const vars = { name: 'Grace', password: 'pw' };
    writeFileSync(path.join(dir, 'by-id.json'), JSON.stringify({ ...FORM, app: { name: 'Deskpilot Fixture', desktopId: 'org.example.Fixture.desktop' } }));
    writeFileSync(path.join(dir, 'by-name.json'), JSON.stringify(FORM));
    await expect(workflows.start({ name: 'by-name', vars })).rejects.toMatchObject({ code: 'VALIDATION', data: { reason: 'ambiguous_app' } });
    // The user is in the twin: it has the name but another desktop id, so the run goes to the fixture.
    await workflows.start({ name: 'by-id', vars, pid: twin.pid });
    expect((await finished()).report.status).toBe('completed');
    expect(app.get('name').value).toBe('Grace');
  });

  it('offers the saved workflows to the agent as tools', async () => {
    const { dir, workflows } = setup();
    writeFileSync(path.join(dir, 'weekly.json'), JSON.stringify(FORM));
    expect((await workflows.tools(() => undefined)).map((tool) => tool.name)).toEqual(['workflow_weekly']);
  });

  it('refuses a run that misses a secret value before anything runs', async () => {
    const { dir, workflows, events } = setup();
    writeFileSync(path.join(dir, 'weekly.json'), JSON.stringify(FORM));
    await expect(workflows.start({ name: 'weekly', vars: {}, pid: FIXTURE_PID })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(workflows.start({ name: '../etc', vars: {} })).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(events).toEqual([]);
  });

  it('waits for a running ask rather than act alongside it', async () => {
    const { dir, platform, engine, events } = setup();
    writeFileSync(path.join(dir, 'weekly.json'), JSON.stringify(FORM));
    const busy = new HostWorkflows({
      platform,
      engine,
      dir: () => dir,
      post: (event) => events.push(event),
      awaitApproval: () => new Promise(() => undefined),
      ownPids: [],
      busy: () => true,
    });
    await expect(busy.start({ name: 'weekly', vars: { password: 'x' }, pid: FIXTURE_PID })).rejects.toThrow(/working on a question/);
    expect(events).toEqual([]);
  });

  it('asks the window before a risky step, and a denial halts with the report', async () => {
    const { dir, workflows, events, answers, finished, app } = setup();
    app.get('button').name = 'Delete all';
    writeFileSync(
      path.join(dir, 'purge.json'),
      JSON.stringify({ ...FORM, parameters: undefined, steps: [{ action: 'click', target: { role: 'button', name: 'Delete all' } }] }),
    );
    expect((await workflows.list()).workflows[0]?.risky).toBe(true);
    await workflows.start({ name: 'purge', vars: {}, pid: FIXTURE_PID });
    for (let spin = 0; spin < 100 && answers.size === 0; spin += 1) await new Promise((resolve) => setImmediate(resolve));
    const asked = events.find((event) => event.type === 'approval');
    expect(asked).toMatchObject({ approval: { kind: 'approval', id: 'run-1-approval-1', plan: { verb: 'click', target: 'Delete all' } } });
    answers.get('run-1-approval-1')?.('deny');
    const done = await finished();
    expect(done.report.halt).toMatchObject({ step: 1, code: 'denied' });
    expect(app.clicks).toBe(0);
  });

  it('a stop ends a run that waits on a question', async () => {
    const { dir, workflows, answers, events, app } = setup();
    app.get('button').name = 'Delete all';
    writeFileSync(
      path.join(dir, 'purge.json'),
      JSON.stringify({ ...FORM, parameters: undefined, steps: [{ action: 'click', target: { role: 'button', name: 'Delete all' } }] }),
    );
    await workflows.start({ name: 'purge', vars: {}, pid: FIXTURE_PID });
    for (let spin = 0; spin < 100 && answers.size === 0; spin += 1) await new Promise((resolve) => setImmediate(resolve));
    workflows.stop();
    for (let spin = 0; spin < 100 && !events.some((event) => event.type === 'finished'); spin += 1) await new Promise((resolve) => setImmediate(resolve));
    // The question is answered deny: the step halts there and says so.
    expect(events.at(-1)).toMatchObject({ type: 'finished', report: { halt: { step: 1, code: 'denied' } } });
    expect(app.clicks).toBe(0);
    // The next run may start.
    await expect(workflows.start({ name: 'purge', vars: {}, pid: FIXTURE_PID })).resolves.toEqual({ runId: 'run-2' });
  });

  it("saves a completed ask's verified actions, with the parameters the user kept", async () => {
    const { dir, workflows, engine } = setup();
    const id = async (name: string) => findNodes((await engine.observe(FIXTURE_PID)).root, { name, limit: 1 })[0]?.node.id ?? '';
    workflows.askStarted('s.1-ask-1', 'fill the form as Grace Hopper from Lisbon', FIXTURE_PID);
    await engine.run(FIXTURE_PID, { action: 'set_value', id: await id('Name'), value: 'Grace Hopper' });
    await engine.run(FIXTURE_PID, { action: 'set_value', id: await id('Password'), value: 'hunter2' });
    workflows.askEnded('s.1-ask-1', true);

    const draft = await workflows.draft('s.1-ask-1');
    expect(draft).toMatchObject({ name: 'fill-the-form-as-grace-hopper', steps: [expect.stringContaining('"{{name}}"'), expect.any(String)] });
    expect(draft.parameters).toEqual([
      { name: 'name', description: 'Name (from the question)', default: 'Grace Hopper', secret: false },
      { name: 'password', description: 'Password (secret)', secret: true },
    ]);
    const saved = await workflows.save({ askId: 's.1-ask-1', name: 'sign-up', parameters: [] });
    expect(saved.parameters.map((each) => each.name)).toEqual(['password']);
    const text = readFileSync(path.join(dir, 'sign-up.json'), 'utf8');
    expect(text).toContain('"value": "Grace Hopper"');
    expect(text).not.toContain('hunter2');
    await expect(workflows.save({ askId: 's.1-ask-1', name: 'sign-up', parameters: [] })).rejects.toThrow(/exists already/);
    await expect(workflows.draft('s.1-ask-2')).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('keeps nothing from a stopped ask', async () => {
    const { workflows, engine } = setup();
    workflows.askStarted('a', 'click it', FIXTURE_PID);
    const button = findNodes((await engine.observe(FIXTURE_PID)).root, { role: 'button', limit: 1 })[0]?.node.id ?? '';
    await engine.run(FIXTURE_PID, { action: 'click', id: button });
    workflows.askEnded('a', false);
    await expect(workflows.draft('a')).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(engine.actions).toEqual([]);
  });
});
