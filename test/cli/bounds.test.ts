/**
 * User errors on the command line: each is one line on stderr and exit 2, decided before any
 * work (not one call into the platform), and the next command runs as usual. Over the fake desktop.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { main } from '../../src/cli/main';
import { countPlatformCalls, type CallCount } from '../platform-calls';

let platform: FakePlatform;
let calls: CallCount;
let out: string[];
let err: string[];

/** The exit code, and how many platform calls the command made. */
async function cli(...argv: string[]): Promise<{ code: number; calls: number }> {
  const before = calls.total;
  const code = await main(argv, { stdout: (text) => out.push(text), stderr: (text) => err.push(text), env: {}, platform });
  return { code, calls: calls.total - before };
}

beforeEach(() => {
  platform = new FakePlatform();
  calls = countPlatformCalls(platform);
  out = [];
  err = [];
});

const BIG = 'x'.repeat(200_000);

const REFUSED: [string, string[], RegExp][] = [
  ['a stray operand', ['apps', 'extra'], /^deskpilot: VALIDATION: 'apps' takes no arguments, got 'extra'\. Usage: deskpilot apps \[--json\]$/],
  ['a stray operand to tree', ['tree', '--app', 'notes', 'more'], /^deskpilot: VALIDATION: 'tree' takes no arguments, got 'more'/],
  ['a stray operand to doctor', ['doctor', 'now'], /^deskpilot: VALIDATION: 'doctor' takes no arguments/],
  ['a stray operand to mcp', ['mcp', 'serve'], /^deskpilot: VALIDATION: 'mcp' takes no arguments/],
  ['a negative pid', ['tree', '--pid', '-1'], /^deskpilot: VALIDATION: --pid needs a positive whole number, got '-1'$/],
  ['a huge name', ['find', '--name', BIG], /^deskpilot: VALIDATION: --name is 200000 characters; at most 1000$/],
  ['a huge app name', ['tree', '--app', BIG], /^deskpilot: VALIDATION: --app is 200000 characters; at most 1000$/],
  ['a huge root id', ['tree', '--app', 'notes', '--root', BIG], /^deskpilot: VALIDATION: --root is 200000 characters; at most 64$/],
  [
    'a huge act request',
    ['act', '--app', 'notes', `{"action":"type","text":"${BIG}${BIG}"}`],
    /^deskpilot: VALIDATION: an argument is \d+ characters; at most 101000$/,
  ],
  ['a second operand to read', ['read', '--app', 'notes', 'abcde', 'fghij'], /^deskpilot: VALIDATION: read needs exactly one node id/],
];

describe('CLI refusals', () => {
  it.each(REFUSED)('refuses %s in one line, exit 2, before any platform call, and then runs the next command', async (_what, argv, expected) => {
    const refused = await cli(...argv);
    expect(refused.code).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(expected);
    expect(out).toEqual([]);
    expect(refused.calls).toBe(0);
    const next = await cli('apps');
    expect(next.code).toBe(0);
    expect(next.calls).toBeGreaterThan(0);
  });

  it('keeps a multi-line message to one line', async () => {
    // An unknown id quoted whole used to spill a huge line; ids in errors are cut, and newlines never pass.
    expect((await cli('read', '--app', 'notes', `${'q'.repeat(300)}\nsecond line`)).code).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).not.toContain('\n');
    expect(err[0]).toMatch(/^deskpilot: NODE_NOT_FOUND: node not found: 'q{40}…'/);
  });
});
