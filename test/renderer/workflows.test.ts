import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatEntry } from '../../src/shared/transcript';
import type { WorkflowListReply } from '../../src/shared/workflow-ipc';
import { calls, emit, screenshot } from './harness/browser';
import { options } from './harness/fixtures';
import { useHarness } from './harness/suite';

const harness = useHarness();

const LISTING: WorkflowListReply = {
  folder: '/home/ada/.local/share/deskpilot/workflows',
  skipped: [{ file: 'broken.json', reason: 'is not JSON' }],
  workflows: [
    {
      name: 'sign-up',
      title: 'sign up',
      description: 'Fills the sign-up form.',
      app: 'Deskpilot Fixture',
      steps: 3,
      risky: true,
      parameters: [
        { name: 'name', description: 'Who signs up', default: 'Ada', secret: false },
        { name: 'password', description: 'Password (secret)', secret: true },
      ],
    },
  ],
};

async function openWorkflows(overrides: Parameters<typeof options>[0] = {}): Promise<Page> {
  const { page } = await harness().open(options({ workflows: LISTING, ...overrides }));
  await page.getByRole('button', { name: 'Workflows' }).click();
  await page.getByRole('heading', { name: 'Workflows' }).waitFor();
  return page;
}

describe('workflows view', () => {
  it('lists the folder and runs one with its parameters, the secret one a password input that is emptied after', async () => {
    const page = await openWorkflows();
    await page.getByText('Skipped broken.json: is not JSON').waitFor();
    await page.getByRole('button', { name: /sign up/ }).click();
    const password = page.getByLabel('password');
    expect(await password.getAttribute('type')).toBe('password');
    expect(await page.getByLabel('name', { exact: true }).inputValue()).toBe('Ada');
    // A real run needs the secret: refused in the form, nothing sent.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('Give a value for password.').waitFor();
    expect(await calls(page, 'runWorkflow')).toEqual([]);
    await password.fill('hunter2');
    await page.getByLabel('Trust this workflow: run risky steps without asking').check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect
      .poll(async () => (await calls(page, 'runWorkflow')).map((call) => call.payload))
      .toEqual([{ name: 'sign-up', vars: { name: 'Ada', password: 'hunter2' }, dryRun: false, trusted: true }]);
    await expect.poll(() => password.inputValue()).toBe('');
    expect(await page.content()).not.toContain('hunter2');

    await emit(page, { type: 'workflow', event: { type: 'started', runId: 'run-1', name: 'sign-up', dryRun: false, steps: 3 } });
    await page.getByText('Running sign-up…').waitFor();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await emit(page, {
      type: 'workflow',
      event: { type: 'step', runId: 'run-1', step: { step: 1, action: 'set_value', status: 'ok', target: 'textfield "Name"', rung: 'identity', ms: 12 } },
    });
    await page.getByText('found by identity').waitFor();
    await screenshot(page, 'workflows-running');
  });

  it('asks before a risky step through approve(), then shows the halt report', async () => {
    const page = await openWorkflows();
    await page.getByRole('button', { name: /sign up/ }).click();
    await emit(page, { type: 'workflow', event: { type: 'started', runId: 'run-1', name: 'sign-up', dryRun: false, steps: 2 } });
    await emit(page, {
      type: 'workflow',
      event: {
        type: 'approval',
        runId: 'run-1',
        approval: {
          kind: 'approval',
          id: 'run-1-approval-1',
          askId: 'run-1',
          tool: 'ui_action',
          summary: 'click',
          reason: 'clicks "Delete all"',
          plan: { verb: 'click', target: 'Delete all' },
          app: 'Deskpilot Fixture',
        },
      },
    });
    const card = page.getByRole('region', { name: 'Approval needed' }).or(page.locator('.approval-card'));
    await card.first().waitFor();
    await page.getByRole('button', { name: /^Deny/ }).click();
    await expect.poll(async () => (await calls(page, 'approve')).map((call) => call.payload)).toEqual([{ id: 'run-1-approval-1', decision: 'deny' }]);
    await emit(page, {
      type: 'workflow',
      event: {
        type: 'finished',
        runId: 'run-1',
        report: {
          workflow: 'sign up',
          status: 'halted',
          ms: 40,
          steps: [
            { step: 1, action: 'click', status: 'halted', target: 'button "Delete all"' },
            { step: 2, action: 'click', status: 'not_run' },
          ],
          halt: {
            step: 1,
            action: 'click',
            code: 'ambiguous',
            message: '2 elements fit button "Save" equally; a workflow never picks between them',
            lookedFor: 'button "Save" in window "* - Mousepad"',
            candidates: [
              { id: 'a1', role: 'button', name: 'Save', reason: 'fits as well as 1 other' },
              { id: 'b2', role: 'button', name: '<img src=x onerror=alert(1)>', reason: 'name is not "Save"' },
            ],
            screenshot: '/tmp/deskpilot-halt-x/halt-42.png',
          },
        },
      },
    });
    await page.getByText('Halted at step 1. Nothing after it ran.').waitFor();
    const report = page.getByRole('region', { name: 'Why it halted' });
    await report.getByText('More than one element fits; a workflow never picks.').waitFor();
    expect(await report.innerText()).toContain('button "Save" in window "* - Mousepad"');
    // App text is text, never markup.
    expect(await report.innerText()).toContain('button “<img src=x onerror=alert(1)>”: name is not "Save"');
    expect(await report.locator('img').count()).toBe(0);
    expect(await report.innerText()).toContain('/tmp/deskpilot-halt-x/halt-42.png');
    await page.getByText('not run').waitFor();
    await screenshot(page, 'workflows-halted');
  });

  it('a risky step asking while the user is in the chat brings the Workflows view up, with the run so far', async () => {
    const { page } = await harness().open(options({ workflows: LISTING }));
    await page.getByRole('textbox', { name: 'Ask Deskpilot' }).waitFor();
    await emit(page, { type: 'workflow', event: { type: 'started', runId: 'run-1', name: 'sign-up', dryRun: false, steps: 2 } });
    await emit(page, {
      type: 'workflow',
      event: { type: 'step', runId: 'run-1', step: { step: 1, action: 'set_value', status: 'ok', target: 'textfield "Name"' } },
    });
    await emit(page, {
      type: 'workflow',
      event: {
        type: 'approval',
        runId: 'run-1',
        approval: {
          kind: 'approval',
          id: 'run-1-approval-1',
          askId: 'run-1',
          tool: 'ui_action',
          summary: 'click',
          reason: 'deletes',
          plan: { verb: 'click', target: 'Delete all' },
        },
      },
    });
    await page.getByRole('heading', { name: 'Workflows' }).waitFor();
    await page.getByText('textfield "Name"').waitFor();
    await page.getByRole('button', { name: /^Allow once/ }).click();
    await expect.poll(async () => (await calls(page, 'approve')).map((call) => call.payload)).toEqual([{ id: 'run-1-approval-1', decision: 'allow_once' }]);
    await emit(page, { type: 'workflow', event: { type: 'stopped', runId: 'run-1' } });
    await page.getByText('Stopped. Nothing after the steps shown ran.').waitFor();
  });

  it('a dry run sends no secret and needs none', async () => {
    const page = await openWorkflows();
    await page.getByRole('button', { name: /sign up/ }).click();
    await page.getByLabel('password').fill('hunter2');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect
      .poll(async () => (await calls(page, 'runWorkflow')).map((call) => call.payload))
      .toEqual([{ name: 'sign-up', vars: { name: 'Ada' }, dryRun: true, trusted: false }]);
  });

  it('saves a completed task as a workflow, with the parameters the user keeps', async () => {
    const history: ChatEntry[] = [
      { kind: 'user', id: 'u1', askId: 'h.1-ask-1', text: 'sign up as Grace from Lisbon', at: 0 },
      { kind: 'tool', id: 't1', askId: 'h.1-ask-1', name: 'ui_action', arguments: '{}', status: 'ok', changed: true, logs: [] },
      { kind: 'assistant', id: 'x1', askId: 'h.1-ask-1', text: 'Done.', streaming: false },
    ];
    const { page } = await harness().open(
      options({
        history,
        workflowDraft: {
          askId: 'h.1-ask-1',
          name: 'sign-up-as-grace',
          steps: ['set_value textfield "Name" to "{{name}}"', 'set_value textfield "City" to "{{city}}"'],
          parameters: [
            { name: 'name', default: 'Grace', secret: false },
            { name: 'city', default: 'Lisbon', secret: false },
            { name: 'password', secret: true },
          ],
        },
      }),
    );
    await page.getByRole('button', { name: 'Save as workflow' }).click();
    await page.getByRole('heading', { name: 'Save as workflow' }).waitFor();
    expect((await calls(page, 'draftWorkflow')).map((call) => call.payload)).toEqual([{ askId: 'h.1-ask-1' }]);
    await page.getByText('“password” is secret: asked for on each run, never saved.').waitFor();
    await page.getByLabel('Ask for “city” on each run (default: Lisbon)').uncheck();
    await page.getByLabel('Name', { exact: true }).fill('bad name!');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Use letters, digits, - and _ only, at most 48.').waitFor();
    expect(await calls(page, 'saveWorkflow')).toEqual([]);
    await page.getByLabel('Name', { exact: true }).fill('sign-up');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved as sign-up.').waitFor();
    expect((await calls(page, 'saveWorkflow')).map((call) => call.payload)).toEqual([{ askId: 'h.1-ask-1', name: 'sign-up', parameters: ['name'] }]);
    await page.getByRole('button', { name: /sign-up/ }).waitFor();
    await screenshot(page, 'workflows-saved');
  });
});
