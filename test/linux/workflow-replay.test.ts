/**
 * Workflows on a real desktop: a demonstration of the 8-field form recorded from XInput2
 * events (xdotool's synthetic input), replayed on fresh instances, and judged by the form's
 * own output. `npm run bench:replay` runs the full drift suite; this holds the core of it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenInput } from '../../src/core/platform/linux/x11/input-events';
import { findNodes } from '../../src/core/ui/query';
import { formatWorkflow, parseWorkflow } from '../../src/core/workflows/load';
import { resolveValues } from '../../src/core/workflows/params';
import { DemonstrationRecorder } from '../../src/core/workflows/record/demonstration';
import { runWorkflow } from '../../src/core/workflows/runner';
import type { Workflow } from '../../src/core/workflows/schema';
import { type Desktop, type LaunchedApp } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools, waitFor } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
const FORM = fileURLToPath(new URL('../../resources/fixture-app/replay-form.py', import.meta.url));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!run)('workflows on the replay form', () => {
  let desktop: Desktop;
  let workflow: Workflow;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
  }, 60_000);

  afterAll(async () => desktop?.stop());

  async function output(app: LaunchedApp): Promise<{ event: string; fields?: Record<string, unknown> }[]> {
    const exited = new Promise((resolve) => app.child.once('exit', resolve));
    app.child.kill('SIGTERM');
    await Promise.race([exited, sleep(3_000)]);
    const log = readFileSync(desktop.session.logPath(app.child) ?? '', 'utf8');
    return log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  }

  it('records clicks and typing from the X server as steps with parameters', async () => {
    const app = await desktop.launch('/usr/bin/python3', [FORM]);
    const recorder = new DemonstrationRecorder({ engine: desktop.engine, pid: app.pid });
    await recorder.start();
    let clicksHeard = 0;
    const listener = await listenInput(desktop.session.env, (event) => {
      if (event.kind === 'key') void recorder.push(event);
      else if (event.button === 1) {
        clicksHeard += 1;
        void recorder.push({ kind: 'button', x: event.x, y: event.y });
      }
    });
    const click = async (role: string, name: string): Promise<void> => {
      const { root } = await desktop.engine.observe(app.pid, { bounds: 'interactive', fresh: true });
      const bounds = findNodes(root, { role, name }).find((match) => match.node.name === name)?.node.bounds;
      if (bounds === undefined) throw new Error(`no ${role} ${name}`);
      const heard = clicksHeard;
      execFileSync('xdotool', ['mousemove', String(bounds.x + bounds.width / 2), String(bounds.y + bounds.height / 2), 'click', '1'], {
        env: { ...process.env, ...desktop.session.env },
      });
      // The listener hears the click after the keys typed before it (one ordered stream), and the recorder has it then.
      await waitFor(() => (clicksHeard > heard ? true : undefined), 5000, `the click on ${role} ${name} to reach the listener`);
      await recorder.drain();
    };
    await click('textfield', 'Name');
    execFileSync('xdotool', ['type', '--delay', '15', 'Ada'], { env: { ...process.env, ...desktop.session.env } });
    await click('textfield', 'Password');
    execFileSync('xdotool', ['type', '--delay', '15', 'pw1'], { env: { ...process.env, ...desktop.session.env } });
    await click('checkbox', 'Terms');
    await click('button', 'Save');
    listener.close();
    workflow = parseWorkflow(formatWorkflow(await recorder.finish('sign-up', { name: 'replay-form.py' })));
    expect(recorder.notes).toEqual([]);
    expect(workflow.steps.map((step) => step.action)).toEqual(['set_value', 'set_value', 'click', 'click']);
    expect(workflow.parameters).toEqual({ name: { description: 'Name', default: 'Ada' }, password: { description: 'Password (secret)', secret: true } });
    expect(formatWorkflow(workflow)).not.toContain('pw1');
    expect((await output(app)).find((event) => event.event === 'save')?.fields).toMatchObject({ Name: 'Ada', Password: 'pw1', Terms: true });
  }, 60_000);

  it('replays on a reordered form with a decoy, with new values, and only the intended fields change', async () => {
    const app = await desktop.launch('/usr/bin/python3', [FORM, '--reorder', '--decoy']);
    const given = { name: 'Grace', password: 'pw2' };
    const report = await runWorkflow(workflow, {
      engine: desktop.engine,
      platform: desktop.platform,
      pid: app.pid,
      values: resolveValues(workflow, given),
      given,
    });
    expect(report.status, JSON.stringify(report.halt)).toBe('completed');
    const events = await output(app);
    expect(events.map((event) => event.event)).toEqual(['save', 'exit']);
    expect(events[0]?.fields).toEqual({ Name: 'Grace', Email: '', Phone: '', City: '', Plan: '', Password: 'pw2', Subscribe: false, Terms: true });
  }, 60_000);

  it('halts at the step whose element is gone, and nothing after it runs', async () => {
    const app = await desktop.launch('/usr/bin/python3', [FORM, '--remove', 'Password']);
    const given = { password: 'pw3' };
    const report = await runWorkflow(workflow, {
      engine: desktop.engine,
      platform: desktop.platform,
      pid: app.pid,
      values: resolveValues(workflow, given),
      given,
      waitMs: 1_000,
    });
    expect(report.halt).toMatchObject({ step: 2, code: 'not_found', lookedFor: expect.stringContaining('textfield "Password"') });
    expect((await output(app)).map((event) => event.event)).toEqual(['exit']);
  }, 60_000);
});
