import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SafetyGate } from '../agent/safety';
import { FIXTURE_PID } from '../platform/fake/fake-platform';
import { fakeContext } from '../tools/fake-context';
import { listWorkflows } from './folder';
import { workflowRunTool, workflowTool } from './tools';

const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-workflow-tools-'));
const workflow = (steps: unknown[], parameters: Record<string, unknown> = {}): string =>
  JSON.stringify({ format: 'deskpilot-workflow', version: 1, name: 'Sign up', app: { name: 'Deskpilot Fixture' }, parameters, steps });
writeFileSync(
  path.join(dir, 'sign-up.json'),
  workflow(
    [
      { action: 'set_value', target: { role: 'textfield', name: 'Name' }, value: '{{name}}', expect: { value: '{{name}}' } },
      { action: 'set_value', target: { role: 'textfield', name: 'Password' }, value: '{{password}}' },
    ],
    { name: { description: 'Your name', default: 'Ada' }, password: { secret: true } },
  ),
);
writeFileSync(path.join(dir, 'wipe.json'), workflow([{ action: 'click', target: { role: 'button', name: 'Delete all' } }]));
// Which button and which key come from the call: the gate must judge them filled in.
writeFileSync(
  path.join(dir, 'press.json'),
  workflow(
    [
      { action: 'click', target: { role: 'button', name: '{{button}}' } },
      { action: 'key', key: '{{key}}', modifiers: ['{{modifier}}'] },
    ],
    { button: { default: 'Submit' }, key: { default: 'a' }, modifier: { default: 'shift' } },
  ),
);
writeFileSync(path.join(dir, 'broken.json'), '{"format":"deskpilot-workflow"');

describe('saved workflows as tools', () => {
  it('lists the valid files and skips broken ones, saying why', async () => {
    const skipped: string[] = [];
    const saved = await listWorkflows(dir, (file) => skipped.push(path.basename(file)));
    expect(saved.map((each) => each.name)).toEqual(['press', 'sign-up', 'wipe']);
    expect(skipped).toEqual(['broken.json']);
  });

  it('show the model a name and the parameters, required when they have no default', async () => {
    const [, signUp] = await listWorkflows(dir);
    const tool = workflowTool(signUp as never);
    expect(tool.name).toBe('workflow_sign_up');
    expect(tool.schema.safeParse({ password: 'x' }).success).toBe(true);
    expect(tool.schema.safeParse({ name: 'x' }).success).toBe(false);
  });

  it('go through the agent’s gate: risky when a step is, secret text only from the user', async () => {
    const [, signUp, wipe] = (await listWorkflows(dir)).map((each) => workflowTool(each));
    const context = fakeContext();
    const gate = new SafetyGate('confirm-risky');
    const call = (tool: typeof signUp, args: unknown, userText: string) =>
      gate.check({ askId: 'a', callId: 'c', tool: tool?.name ?? '', definition: tool as never, rawArguments: JSON.stringify(args) }, context, {
        userText,
        readContent: false,
      });
    expect((await call(wipe, {}, 'wipe it')).kind).toBe('ask');
    expect((await call(signUp, { password: 'hunter2' }, 'sign me up')).kind).toBe('refuse');
    expect((await call(signUp, { password: 'hunter2' }, 'sign me up, password hunter2')).kind).toBe('run');
  });

  it('judge a step as the call fills it: a parameter cannot smuggle a risky button or key combo past approval', async () => {
    const [press] = (await listWorkflows(dir)).map((each) => workflowTool(each));
    const gate = new SafetyGate('confirm-risky');
    const call = async (args: Record<string, string>) =>
      gate.check({ askId: 'a', callId: 'c', tool: press?.name ?? '', definition: press as never, rawArguments: JSON.stringify(args) }, fakeContext(), {
        userText: 'press it',
        readContent: false,
      });
    expect((await call({})).kind).toBe('run');
    expect(await call({ button: 'Delete all' })).toMatchObject({ kind: 'ask', request: { why: { code: 'clicks', values: { name: '"Delete all"' } } } });
    expect(await call({ key: 'q', modifier: 'ctrl' })).toMatchObject({ kind: 'ask', request: { why: { code: 'quitsOrCloses' } } });
  });

  it('replay with the model’s arguments and return the report', async () => {
    const [, signUp] = await listWorkflows(dir);
    const context = fakeContext();
    const result = await workflowTool(signUp as never).handler({ name: 'Grace', password: 'pw' }, context);
    expect(result.success).toBe(true);
    expect(context.platform.app(FIXTURE_PID).get('name').value).toBe('Grace');
    expect(context.platform.app(FIXTURE_PID).get('password').value).toBe('pw');
  });
});

describe('workflow_run', () => {
  it('runs a saved workflow by name, never by path, and halts risky steps it cannot ask about', async () => {
    const tool = workflowRunTool(dir);
    const context = fakeContext();
    const ran = await tool.handler({ name: 'sign-up', vars: { password: 'pw' } }, context);
    expect(ran.success).toBe(true);
    expect(context.platform.app(FIXTURE_PID).get('password').value).toBe('pw');
    await expect(tool.handler({ name: '../etc/passwd' }, context)).rejects.toThrow(/not a workflow name/);
    context.platform.app(FIXTURE_PID).get('button').name = 'Delete all';
    const risky = await tool.handler({ name: 'wipe' }, context);
    expect(risky).toMatchObject({ success: false, data: { halt: { code: 'approval_needed' } } });
    expect(context.platform.app(FIXTURE_PID).clicks).toBe(0);
  });
});
