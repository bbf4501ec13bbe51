import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { UnsupportedOperationError, ValidationError } from '../shared/errors';
import { listenInput, type InputListener } from '../core/platform/linux/x11/input-events';
import type { UserInputEvent } from '../core/platform/types';
import { workflowApp } from '../core/workflows/app-identity';
import { formatWorkflow, parseWorkflow } from '../core/workflows/load';
import { DemonstrationRecorder } from '../core/workflows/record/demonstration';
import type { CommandContext } from './context';

/** The pid from --pid or --app, else the frontmost app. */
type TargetPid = () => Promise<number>;
/** Where the user's presses come from: the platform's own source (macOS: an event tap), else the X server; tests pass their own. */
export type Listen = (
  env: Record<string, string | undefined>,
  onEvent: (event: UserInputEvent) => void,
  onError: (error: Error) => void,
) => Promise<InputListener>;

/** How often the recorder re-reads the app while the user is idle, and checks that it still runs. */
const IDLE_MS = 500;
const LEFT_BUTTON = 1;

/**
 * `deskpilot workflow record --app NAME --out FILE`: records what the user does in the app
 * until Ctrl-C or the app exits, then writes the workflow. Pointer and key presses come from
 * the X server (XInput2 raw events) on Linux, from a listen-only event tap on macOS (with the
 * element the platform hit-tested under each click); each is placed in the app's tree by the recorder.
 */
export async function record(context: CommandContext, targetPid: TargetPid, listen?: Listen): Promise<number> {
  const out = context.values['out'];
  if (typeof out !== 'string' || out === '') throw new ValidationError('workflow record needs --out FILE');
  const source = context.platform.userInput;
  if (listen === undefined && source === undefined && context.platform.name !== 'linux' && context.platform.name !== 'fake') {
    throw new UnsupportedOperationError(
      `recording a demonstration needs Linux with X11 or macOS; on ${context.platform.name}, make workflows with 'ask --save-workflow'`,
    );
  }
  const file = path.resolve(out);
  const pid = await targetPid();
  listen ??= source === undefined ? listenInput : (_env, onEvent, onError) => source.listen({ pid }, onEvent, onError);
  const app = (await context.platform.apps.list()).find((each) => each.pid === pid);
  const recorder = new DemonstrationRecorder({ engine: context.engine, pid });
  await recorder.start();
  let resolveStop: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (resolveStop = resolve));
  const listener = await listen(
    context.io.env,
    (event) => {
      if (event.kind === 'key') void recorder.push(event);
      else if (event.button === LEFT_BUTTON)
        void recorder.push({ kind: 'button', x: event.x, y: event.y, ...(event.hit === undefined ? {} : { hit: event.hit }) });
    },
    (error) => context.io.stderr(`deskpilot: an input event was lost: ${error.message}`),
  );
  const remove = context.io.onInterrupt?.(() => resolveStop('interrupted')) ?? onSigint(() => resolveStop('interrupted'));
  let idle = false;
  const timer = setInterval(() => {
    if (idle) return;
    idle = true;
    void (async () => {
      if (!(await context.platform.apps.isAlive(pid))) resolveStop('the app exited');
      else await recorder.refresh();
    })().finally(() => (idle = false));
  }, IDLE_MS);
  context.io.stderr(`deskpilot: recording ${app?.name ?? `pid ${pid}`}; press Ctrl-C to stop`);
  try {
    const why = await stopped;
    listener.close();
    const workflow = await recorder.finish(path.basename(file, path.extname(file)) || 'workflow', workflowApp(app));
    for (const note of recorder.notes) context.io.stderr(`deskpilot: ${note}`);
    if (workflow.steps.length === 0) {
      context.io.stderr(`deskpilot: stopped (${why}); no step was recorded, nothing written`);
      return 0;
    }
    writeFileSync(file, formatWorkflow(parseWorkflow(formatWorkflow(workflow), file)), { mode: 0o600 });
    const parameters = Object.keys(workflow.parameters ?? {});
    context.io.stderr(
      `deskpilot: stopped (${why}); saved ${workflow.steps.length} step${workflow.steps.length === 1 ? '' : 's'} to ${file}${parameters.length === 0 ? '' : ` (parameters: ${parameters.join(', ')})`}`,
    );
    return 0;
  } finally {
    clearInterval(timer);
    listener.close();
    remove();
  }
}

function onSigint(handler: () => void): () => void {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}
