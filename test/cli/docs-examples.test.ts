/**
 * Every example in docs/cli.md runs as written, on the fixture desktop (DESKPILOT_PLATFORM=fake):
 * each `npm run deskpilot -- …` line as a fresh run of the CLI, and the act table's requests in
 * order on one desktop (a request is run as `act --app fixture '<request>'`). A model server on
 * 127.0.0.1 answers `ask`, as a configured provider would.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { FakeClock } from '../../src/core/clock';
import { ACT_FIELDS } from '../../src/cli/help-act';
import { main } from '../../src/cli/main';
import { startFakeOpenAIServer, textSteps, type FakeOpenAIServer } from '../agent/fake-openai-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const docs = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');

/** Words of a shell line: single and double quotes group, as the shell would for these examples. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/** The `deskpilot` command lines in the page's code blocks, without the `npm run … --` in front. */
function commandLines(): string[] {
  const lines: string[] = [];
  for (const block of docs.matchAll(/```(?:sh)?\n([\s\S]*?)```/g)) {
    for (const line of (block[1] ?? '').split('\n')) {
      const command = /^(?:\$ )?npm run (?:-s )?deskpilot -- (.+)$/.exec(line)?.[1];
      if (command !== undefined) lines.push(command);
    }
  }
  return lines;
}

/** What a successful run of each command exits with. */
const OK: Record<string, number[]> = { act: [0], doctor: [0], find: [0], docs: [0] };

let server: FakeOpenAIServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
  env = {
    DESKPILOT_PLATFORM: 'fake',
    DESKPILOT_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'deskpilot-docs-examples-')),
    DESKPILOT_BASE_URL: server.baseUrl,
    DESKPILOT_API_KEY: 'dummy-key',
    DESKPILOT_MODEL: 'fake-model',
  };
});

afterAll(() => server.close());

async function run(argv: string[], platform?: FakePlatform, clock?: FakeClock): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    write: (text) => out.push(text),
    env,
    stdinIsTTY: false,
    ...(platform === undefined ? {} : { platform }),
    ...(clock === undefined ? {} : { clock }),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('docs/cli.md examples', () => {
  const lines = commandLines();

  it('has examples to run', () => {
    expect(lines.length).toBeGreaterThanOrEqual(8);
  });

  it.each(lines)('runs: deskpilot %s', async (line) => {
    const argv = shellWords(line);
    if (argv[0] === 'ask') server.reply({ kind: 'stream', steps: textSteps(['It is a short note.']) });
    const result = await run(argv);
    expect(OK[argv[0] ?? ''] ?? [0], `${line}\n${result.err}`).toContain(result.code);
  });

  it("runs the act table's requests in order on one desktop", async () => {
    const platform = new FakePlatform();
    // A key combo that changes nothing is looked at until the settle bound; this clock moves on instead of waiting it out.
    const clock = new FakeClock();
    for (const row of ACT_FIELDS) {
      for (const request of row.examples) {
        const result = await run(['act', '--app', 'fixture', request], platform, clock);
        // 3 is a request that ran and changed nothing the fixture shows (a key combo with nothing selected).
        expect([0, 3], `${request}\n${result.err}`).toContain(result.code);
        expect(result.err).toBe('');
      }
    }
    // The table's type without an id went to the field the request before it had focused.
    expect(platform.app(4242).get('name').value).toBe('Adahellohello');
  });

  it('states the act table as `act --help` prints it', () => {
    for (const row of ACT_FIELDS) {
      expect(docs).toContain(`| ${row.action} | ${row.fields} | ${row.examples.map((example) => `\`${example}\``).join(' or ')} |`);
    }
  });
});
