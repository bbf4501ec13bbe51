/**
 * A headless desktop with the Linux platform and action engine on it, for integration
 * tests and benchmarks: one call starts the session, one launches an app and waits until
 * it has registered with AT-SPI.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ActionEngine } from '../../src/core/actions/engine';
import { createLinuxPlatform } from '../../src/core/platform/linux';
import type { Platform } from '../../src/core/platform/types';
import { countNodes } from '../../src/core/ui/tree-index';
import { startSession, waitFor, type HeadlessSession, type SessionOptions } from './session';

export const FIXTURE_APP = fileURLToPath(new URL('../../resources/fixture-app/deskpilot-fixture.py', import.meta.url));
export const ROOT = path.resolve(path.dirname(FIXTURE_APP), '../..');

export interface LaunchedApp {
  pid: number;
  child: ChildProcess;
}

export interface Desktop {
  session: HeadlessSession;
  platform: Platform;
  engine: ActionEngine;
  /** Starts an app in the session and resolves once its window is in the AT-SPI registry. */
  launch(command: string, args?: string[], env?: Record<string, string | undefined>): Promise<LaunchedApp>;
  launchFixture(): Promise<LaunchedApp>;
  /**
   * Stops an app and resolves once its process has exited and it has left the registry. With no
   * window manager, a window that outlives its kill() still covers the app under it, so the next
   * click at computed bounds lands on the dying window.
   */
  quit(app: LaunchedApp): Promise<void>;
  stop(): Promise<void>;
}

export async function startDesktop(options: SessionOptions = {}): Promise<Desktop> {
  const session = await startSession(options);
  // nut-js opens the display named by this process's own environment.
  process.env['DISPLAY'] = session.display;
  const platform = await createLinuxPlatform(session.env);
  return desktopOn(session, platform, async () => {
    await platform.close();
    // nut-js may hold the display open; see StopOptions.
    await session.stop({ keepDisplayUntilExit: true });
  });
}

/** A Desktop over a running session and a platform on it; `stop` is what ending it means. */
export function desktopOn(session: HeadlessSession, platform: Platform, stop: () => Promise<void>): Desktop {
  const engine = new ActionEngine({ platform });
  // GTK 4 keeps adding accessible objects for a while after its window maps; ids are only
  // worth comparing once the node count holds still across two reads.
  const settled = async (pid: number): Promise<void> => {
    let last = -1;
    await waitFor(
      async () => {
        const count = countNodes((await engine.observe(pid, { fresh: true })).root);
        const stable = count === last;
        last = count;
        if (!stable) await new Promise((resolve) => setTimeout(resolve, 150));
        return stable ? true : undefined;
      },
      15_000,
      'the app tree to settle',
    );
  };
  const launch = async (command: string, args: string[] = [], env: Record<string, string | undefined> = {}): Promise<LaunchedApp> => {
    const child = session.launch(command, args, { env });
    const pid = child.pid as number;
    await waitFor(
      async () => ((await platform.apps.list()).find((app) => app.pid === pid && app.windows.length > 0) ? pid : undefined),
      15_000,
      `${command} to register with AT-SPI`,
    );
    await settled(pid);
    return { pid, child };
  };
  return {
    session,
    platform,
    engine,
    launch,
    launchFixture: () => launch('/usr/bin/python3', [FIXTURE_APP]),
    quit: async ({ pid, child }) => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await waitFor(
        async () => ((await platform.apps.list()).some((app) => app.pid === pid) ? undefined : true),
        15_000,
        `${pid} to leave the AT-SPI registry`,
      );
    },
    stop,
  };
}
