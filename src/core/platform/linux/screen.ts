import { UnsupportedOperationError } from '../../../shared/errors';
import type { ScreenCapture } from '../types';
import type { AppDirectory } from './apps';
import { displayProblem, noDisplayError } from './display';
import { captureWindow } from './x11/capture';

/** Window capture on X11 (Xvfb included). Under Wayland without XWayland there is no display to read. */
export function createScreen(env: Record<string, string | undefined>, apps: AppDirectory): ScreenCapture {
  return {
    captureWindow: async (pid, options = {}) => {
      // Asked first, so a missing display is the typed no-display reason that names capture, not input.
      const problem = await displayProblem(env);
      if (problem !== undefined) throw noDisplayError(env, problem, 'window capture needs one');
      const app = await apps.get(pid);
      try {
        return await captureWindow(env, { pid, titles: app.windows.map((window) => window.title) }, options.hidePids ?? []);
      } catch (error) {
        if (error instanceof UnsupportedOperationError) throw error;
        throw new UnsupportedOperationError(`could not capture pid ${pid}'s window: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
    },
  };
}
