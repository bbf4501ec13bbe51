import { z } from 'zod';
import { TimeoutError } from '../../shared/errors';
import type { UiNode } from '../../shared/ui-node';
import { systemClock } from '../clock';
import { findNodes } from '../ui/query';
import { findById, shallow } from '../ui/tree-index';
import { resolveApp, targetFields } from './target';
import { defineTool } from './types';
import { MAX_ID_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS, MAX_WORD_CHARS } from './bounds';
import { argText, argumentLine } from './gist';

export const MAX_WAIT_MS = 30_000;
const DEFAULT_WAIT_MS = 5_000;
const DEFAULT_INTERVAL_MS = 250;
/** A role/name lookup must be a clear match, or waiting "for OK" would stop at "Cancel". */
const MIN_WAIT_SCORE = 0.8;

const stateSchema = z.strictObject({
  checked: z.boolean().optional(),
  selected: z.boolean().optional(),
  enabled: z.boolean().optional(),
  focused: z.boolean().optional(),
  expanded: z.boolean().optional(),
});

const schema = z
  .strictObject({
    ...targetFields,
    id: z.string().min(1).max(MAX_ID_CHARS).optional().describe('Wait on this node id'),
    role: z.string().min(1).max(MAX_WORD_CHARS).optional().describe('Or find the node by role and/or name'),
    name: z.string().min(1).max(MAX_NAME_CHARS).optional().describe('With id: the exact name to wait for. Without: the name to find'),
    value: z
      .union([z.string().max(MAX_TEXT_CHARS), z.number()])
      .optional()
      .describe('Wait until the value equals this'),
    state: stateSchema.optional().describe('Wait until these states hold'),
    timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).optional().describe(`Default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS}`),
    intervalMs: z.number().int().min(10).max(5_000).optional(),
  })
  .refine((args) => args.id !== undefined || args.role !== undefined || args.name !== undefined, { message: 'give id, or role and/or name' });

type Args = z.output<typeof schema>;

function locate(root: UiNode, args: Args): UiNode | undefined {
  if (args.id !== undefined) return findById(root, args.id);
  const match = findNodes(root, {
    ...(args.role === undefined ? {} : { role: args.role }),
    ...(args.name === undefined ? {} : { name: args.name }),
    limit: 1,
  })[0];
  return match !== undefined && match.score >= MIN_WAIT_SCORE ? match.node : undefined;
}

function satisfied(node: UiNode, args: Args): boolean {
  if (args.id !== undefined && args.name !== undefined && node.name !== args.name) return false;
  if (args.value !== undefined && (node.value === undefined || String(node.value) !== String(args.value))) return false;
  for (const [state, wanted] of Object.entries(args.state ?? {})) {
    if (wanted !== undefined && (node.states[state as keyof UiNode['states']] ?? false) !== wanted) return false;
  }
  return true;
}

export const waitForTool = defineTool({
  name: 'ui_wait_for',
  title: 'Wait for an element',
  describe: (args) => {
    const named = argText(args['name']) ?? argText(args['text']) ?? argText(args['description']);
    const role = argText(args['role']);
    return {
      verb: 'wait',
      ...(named === undefined ? (role === undefined ? { unnamed: 'element' } : { target: role }) : { target: named, quoted: true }),
      key: argumentLine(args),
    };
  },
  description:
    'Waits until a node exists (by id, or role and/or name), or until its value, name or states equal what you expect. Polls the app; times out after timeoutMs (at most 30 s) with what it last saw.',
  promptSnippet: 'use it after an action whose effect takes time (loading, a dialog opening) instead of repeating ui_tree',
  effects: 'read',
  schema,
  async handler(args, context) {
    const { pid } = await resolveApp(context, args);
    const clock = context.clock ?? systemClock;
    const timeoutMs = args.timeoutMs ?? DEFAULT_WAIT_MS;
    const deadline = clock.now() + timeoutMs;
    let last: UiNode | undefined;
    let poll = 1;
    for (; ; poll += 1) {
      const { root } = await context.engine.observe(pid, { signal: context.signal, fresh: true });
      last = locate(root, args);
      if (last !== undefined && satisfied(last, args)) {
        return {
          success: true,
          message: `after ${poll} poll${poll === 1 ? '' : 's'}: [${last.id}] ${last.role} ${JSON.stringify(last.name)}${last.value === undefined ? '' : ` = ${JSON.stringify(last.value)}`}`,
          data: { node: shallow(last) },
        };
      }
      if (clock.now() >= deadline) break;
      context.log(`ui_wait_for: poll ${poll}, ${last === undefined ? 'no such node yet' : 'node found, condition not met'}`);
      await clock.sleep(Math.min(args.intervalMs ?? DEFAULT_INTERVAL_MS, Math.max(0, deadline - clock.now())), context.signal);
    }
    const seen =
      last === undefined
        ? 'the node never appeared'
        : `last seen: [${last.id}] ${last.role} ${JSON.stringify(last.name)}${last.value === undefined ? '' : ` = ${JSON.stringify(last.value)}`}`;
    // The app answered every poll: the reason says so, so the advice is about the condition, not a frozen app.
    throw new TimeoutError(`condition not met within ${timeoutMs} ms; ${seen}`, {
      data: { reason: 'condition-not-met', polls: poll, lastSeen: last === undefined ? null : shallow(last) },
    });
  },
});
