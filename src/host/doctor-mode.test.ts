import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HOST_SETTINGS } from './host';

const entry = path.resolve(import.meta.dirname, 'main.ts');

describe('the host started with --doctor', () => {
  it('answers one report for the settings it is sent, and exits', async () => {
    const child = fork(entry, [`--main-pid=${process.pid}`, '--doctor'], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        DESKPILOT_PLATFORM: 'fake',
        DESKPILOT_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'deskpilot-doctor-')),
        DESKPILOT_PROVIDER: 'openai',
        DESKPILOT_API_KEY: 'sk-test',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const answer = new Promise<unknown>((resolve) => child.once('message', resolve));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.send({ type: 'doctor', settings: DEFAULT_HOST_SETTINGS, online: false });
    expect(await answer).toMatchObject({
      type: 'doctor-report',
      report: {
        checks: [
          { id: 'provider', status: 'ok', figure: expect.stringMatching(/^OpenAI, model /) },
          { id: 'docs-index', status: 'skip' },
        ],
      },
    });
    expect(await exited).toBe(0);
  }, 20_000);
});
