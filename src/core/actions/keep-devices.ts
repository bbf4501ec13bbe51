import { AsyncLocalStorage } from 'node:async_hooks';
import { PermissionDeniedError } from '../../shared/errors';
import type { InputRequest } from './engine';

/** Asks the user about one synthetic input step; true lets it run. */
export type InputAsker = (request: InputRequest) => Promise<boolean>;

/**
 * Who can be asked right now. The engine is shared by every caller (the agent's tool calls, a
 * workflow's steps, a CLI command), and a step that needs input can be deep inside a tool
 * (a form fill's third field), so each caller says who to ask around the work it starts,
 * instead of every tool passing an asker down to the engine.
 */
const askers = new AsyncLocalStorage<InputAsker>();

/** Runs `work` with `asker` answering for any synthetic input it needs. */
export function askingAbout<T>(asker: InputAsker, work: () => Promise<T>): Promise<T> {
  return askers.run(asker, work);
}

function described(request: InputRequest): string {
  const target = request.target === undefined ? '' : ` on ${request.target.role} ${JSON.stringify(request.target.name)}`;
  if (request.via === 'open-menu') {
    return `this ${request.action} step takes the user's keyboard (an open menu${target === '' ? '' : ` (${target.slice(4)})`} holds it until it closes; its items can be clicked without opening it)`;
  }
  return `this ${request.action} step needs the user's pointer or keyboard (${request.via}${target}: the element has no accessible way to do it)`;
}

/**
 * The "Never take my pointer or keyboard" rule for ActionEngine's askBeforeInput: with the
 * setting on, a step that only synthetic input can do is put to the user first, through
 * whoever the caller named (askingAbout), and refused before it touches anything when the user
 * says no or nobody can be asked (an MCP client, a script). Steps with an accessible path
 * never get here.
 */
export async function keepDevices(settings: { keepDevices?: boolean | undefined }, request: InputRequest): Promise<void> {
  if (settings.keepDevices !== true) return;
  const data = { pid: request.pid, via: request.via, action: request.action, reason: 'keep-devices' };
  const ask = askers.getStore();
  if (ask === undefined) {
    throw new PermissionDeniedError(
      `${described(request)}, the user asked Deskpilot never to take them without asking, and nobody can be asked here. ` +
        "Ask the user to do this step, or to turn off 'Never take my pointer or keyboard'.",
      { data: { ...data, asked: false } },
    );
  }
  if (!(await ask(request))) {
    throw new PermissionDeniedError(
      `${described(request)}, and the user said no ('Never take my pointer or keyboard'). Do not retry it: ask the user to do this step.`,
      { data: { ...data, asked: true } },
    );
  }
}
