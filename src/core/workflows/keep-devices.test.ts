/** Replays under "Never take my pointer or keyboard": a step that needs input is asked about, or halts. */
import { describe, expect, it } from 'vitest';
import { ActionEngine } from '../actions/engine';
import { keepDevices } from '../actions/keep-devices';
import type { ApprovalDecision, ApprovalRequest } from '../agent/safety';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { parseWorkflow } from './load';
import { runWorkflow } from './runner';

const WINDOW = { role: 'window' as const, title: 'Deskpilot Fixture' };
const CLICK_NAME = parseWorkflow(
  JSON.stringify({
    format: 'deskpilot-workflow',
    version: 1,
    name: 'focus the name',
    app: { name: 'Deskpilot Fixture' },
    steps: [
      { action: 'click', intent: 'focus the name field', target: { window: WINDOW, role: 'textfield', name: 'Name', path: [{ role: 'group', name: '' }] } },
    ],
  }),
);

function run(answer: ApprovalDecision | undefined) {
  const platform = new FakePlatform();
  const clock = new FakeClock();
  const engine = new ActionEngine({ platform, clock, askBeforeInput: (request) => keepDevices({ keepDevices: true }, request) });
  const asked: ApprovalRequest[] = [];
  const decide = answer === undefined ? {} : { decide: (request: ApprovalRequest) => (asked.push(request), Promise.resolve(answer)) };
  const report = runWorkflow(CLICK_NAME, { engine, platform, pid: FIXTURE_PID, clock, values: {}, waitMs: 1_000, ...decide });
  return { platform, asked, report };
}

describe('workflow replay with keepDevices', () => {
  it('asks about the step’s input through the run’s decider and runs it when allowed', async () => {
    const { platform, asked, report } = run('allow_once');
    expect((await report).status).toBe('completed');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ why: { code: 'takesDevices' }, plan: { verb: 'click', target: 'Name' }, pid: FIXTURE_PID });
    expect(platform.inputLog.some((entry) => entry.startsWith('click'))).toBe(true);
  });

  it('halts as denied, with nothing sent, when the user says no', async () => {
    const { platform, report } = run('deny');
    expect((await report).halt).toMatchObject({ step: 1, code: 'denied' });
    expect(platform.inputLog).toEqual([]);
  });

  it('halts as needing approval when nobody can answer', async () => {
    const { platform, asked, report } = run(undefined);
    expect((await report).halt).toMatchObject({ step: 1, code: 'approval_needed' });
    expect(asked).toEqual([]);
    expect(platform.inputLog).toEqual([]);
  });
});
