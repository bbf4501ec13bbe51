import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform } from '../core/platform/fake/fake-platform';
import { runtimeOn } from '../core/runtime/runtime';
import type { InputEvent } from '../core/platform/linux/x11/input-events';
import type { UserInputSource } from '../core/platform/types';
import { PermissionDeniedError, isDeskpilotError } from '../shared/errors';
import { record, type Listen } from './workflow-record';

describe('deskpilot workflow record', () => {
  it('records presses from the input source until Ctrl-C and writes a valid workflow', async () => {
    const platform = new FakePlatform();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-record-')), 'toggle.json');
    const err: string[] = [];
    let interrupt: () => void = () => undefined;
    let closed = false;
    const listen: Listen = (_env, onEvent) => {
      // The user clicks the check box, then presses Ctrl-C; the source reports the click as X would.
      setTimeout(() => {
        void (async () => {
          await platform.input.click({ x: 30, y: 70 });
          onEvent({ kind: 'button', button: 1, x: 30, y: 70 } satisfies InputEvent);
          onEvent({ kind: 'button', button: 3, x: 30, y: 70 });
          setTimeout(() => interrupt(), 400);
        })();
      }, 0);
      return Promise.resolve({ close: () => (closed = true) });
    };
    const runtime = runtimeOn(platform, { env: {}, docs: false });
    const code = await record(
      {
        runtime,
        platform,
        engine: runtime.engine,
        values: { out: file },
        positionals: [],
        io: { stdout: () => undefined, stderr: (text) => err.push(text), env: {}, onInterrupt: (handler) => ((interrupt = handler), () => undefined) },
      },
      () => Promise.resolve(FIXTURE_PID),
      listen,
    );
    expect(code).toBe(0);
    expect(closed).toBe(true);
    expect(err.at(-1)).toMatch(/stopped \(interrupted\); saved 1 step to .*toggle\.json/);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.steps).toEqual([
      expect.objectContaining({
        action: 'click',
        target: expect.objectContaining({ role: 'checkbox', name: 'Enable feature' }),
        expect: { states: { checked: true } },
      }),
    ]);
  });

  it("uses the platform's own input source (macOS's event tap) with the recorded pid, and passes the hit element on", async () => {
    const platform = new FakePlatform();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-record-')), 'tap.json');
    let interrupt: () => void = () => undefined;
    const asked: { pid?: number }[] = [];
    const userInput: UserInputSource = {
      listen: (options, onEvent) => {
        asked.push(options);
        setTimeout(() => {
          void (async () => {
            await platform.input.click({ x: 30, y: 70 });
            onEvent({ kind: 'button', button: 1, x: 30, y: 70, hit: { role: 'checkbox', secret: false } });
            setTimeout(() => interrupt(), 400);
          })();
        }, 0);
        return Promise.resolve({ close: () => undefined });
      },
    };
    Object.assign(platform, { userInput });
    const runtime = runtimeOn(platform, { env: {}, docs: false });
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, onInterrupt: (handler: () => void) => ((interrupt = handler), () => undefined) };
    const code = await record({ runtime, platform, engine: runtime.engine, values: { out: file }, positionals: [], io }, () => Promise.resolve(FIXTURE_PID));
    expect(code).toBe(0);
    expect(asked).toEqual([{ pid: FIXTURE_PID }]);
    expect(JSON.parse(readFileSync(file, 'utf8')).steps).toEqual([
      expect.objectContaining({ action: 'click', target: expect.objectContaining({ role: 'checkbox' }) }),
    ]);
  });

  it("stops with the source's typed error (Input Monitoring missing) and writes nothing", async () => {
    const platform = new FakePlatform();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-record-')), 'none.json');
    Object.assign(platform, { userInput: { listen: () => Promise.reject(new PermissionDeniedError('Input Monitoring is off')) } satisfies UserInputSource });
    const runtime = runtimeOn(platform, { env: {}, docs: false });
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, onInterrupt: () => () => undefined };
    const error: unknown = await record({ runtime, platform, engine: runtime.engine, values: { out: file }, positionals: [], io }, () =>
      Promise.resolve(FIXTURE_PID),
    ).catch((caught: unknown) => caught);
    expect(isDeskpilotError(error) && error.code).toBe('PERMISSION_DENIED');
    expect(() => readFileSync(file)).toThrow();
  });
});
