/** `deskpilot act` as docs/cli.md promises it: typing at the focus, exit codes that tell a soft failure, advice in CLI commands. */
import { beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform } from '../core/platform/fake/fake-platform';
import { FakeClock } from '../core/clock';
import { main } from './main';

let platform: FakePlatform;
let out: string[];
let err: string[];

async function cli(...argv: string[]): Promise<number> {
  // A soft failure is looked at until the settle bound: on a fake clock, counted instead of waited.
  return main(argv, { stdout: (text) => out.push(text), stderr: (text) => err.push(text), env: {}, platform, clock: new FakeClock() });
}

async function idOf(role: string, name: string): Promise<string> {
  const at = out.length;
  expect(await cli('find', '--role', role, '--name', name, '--limit', '1')).toBe(0);
  return /\[(\w+)\]/.exec(out[at] ?? '')?.[1] ?? 'missing';
}

beforeEach(() => {
  platform = new FakePlatform();
  out = [];
  err = [];
});

describe('deskpilot act', () => {
  it('types into the focused control when the request has no id', async () => {
    const name = await idOf('textfield', 'Name');
    expect(await cli('act', JSON.stringify({ action: 'click', id: name }))).toBe(0);
    expect(await cli('act', '{"action":"type","text":"hello"}')).toBe(0);
    expect(out.at(-1)).toBe(`type ran via input; changed: value: "" → "hello"\nnow: [${name}] textfield "Name" = "hello" (focused)`);
    expect(platform.app(FIXTURE_PID).get('name').value).toBe('hello');
  });

  it('exits 3 for a soft failure, and its advice names deskpilot commands, not MCP tools', async () => {
    const label = await idOf('label', 'Ready');
    expect(await cli('act', JSON.stringify({ action: 'click', id: label }))).toBe(3);
    const said = out.at(-1) ?? '';
    expect(said).toContain(
      "but changed: false: nothing observable changed (a soft failure). Do not assume it worked: read the node again with 'deskpilot tree --root ID' or 'deskpilot find'",
    );
    expect(said).not.toMatch(/ui_\w+/);
  });

  it('exits 0 for a scroll that changed nothing the node shows, as the contract allows', async () => {
    const list = await idOf('list', 'Items');
    expect(await cli('act', JSON.stringify({ action: 'scroll', id: list, direction: 'up' }))).toBe(0);
  });

  it('advises the CLI way on a failure too', async () => {
    const label = await idOf('label', 'Ready');
    expect(await cli('act', JSON.stringify({ action: 'set_value', id: label, value: 'x' }))).toBe(1);
    expect(err.at(-1)).toMatch(/^deskpilot: set_value failed: NOT_SETTABLE: .*Use 'deskpilot act' with "action":"type" on the same id instead\.$/);
    expect(await cli('act', '--pid', '999999', JSON.stringify({ action: 'click', id: label }))).toBe(2);
  });
});
