import { z } from 'zod';
import type { UiNode } from '../../shared/ui-node';
import { MIN_SCORE, findNodes, textScore } from '../ui/query';
import { trustedMatches } from '../ui/read-cut';
import { formatNode } from '../ui/serialize';
import { fitJson, fitText } from './budget';
import { nodeById, resolveApp, targetFields } from './target';
import { defineTool, type ToolContext } from './types';
import { quickFind } from './quick-find';
import { MAX_ID_CHARS, MAX_NAME_CHARS, MAX_WORD_CHARS } from './bounds';
import { argText, argumentLine } from './gist';

const schema = z
  .strictObject({
    ...targetFields,
    id: z.string().min(1).max(MAX_ID_CHARS).optional().describe('A node id, to look one node up'),
    role: z
      .string()
      .min(1)
      .max(MAX_WORD_CHARS)
      .optional()
      .describe('Role such as button (includes toggle buttons), textfield, checkbox, slider, listitem, menuitem'),
    name: z.string().min(1).max(MAX_NAME_CHARS).optional().describe('Matched fuzzily against the name'),
    description: z.string().min(1).max(MAX_NAME_CHARS).optional().describe('Matched fuzzily against the description (tooltip, help text)'),
    text: z.string().min(1).max(MAX_NAME_CHARS).optional().describe('Matched against name, value and description'),
    limit: z.number().int().min(1).max(500).optional().describe('Most results (default 20)'),
  })
  .refine((args) => [args.id, args.role, args.name, args.description, args.text].some((value) => value !== undefined), {
    message: 'give at least one of id, role, name, description or text',
  });

export interface ElementMatch {
  id: string;
  role: string;
  name: string;
  /** Left out for secret fields. */
  value?: string | number;
  description?: string;
  score: number;
  visible: boolean;
}

function toMatch(node: UiNode, score: number): ElementMatch {
  return {
    id: node.id,
    role: node.role,
    name: node.name,
    ...(node.value === undefined || node.states.secret ? {} : { value: node.value }),
    ...(node.description === undefined ? {} : { description: node.description }),
    score: Math.round(score * 100) / 100,
    visible: node.states.visible !== false,
  };
}

const output = z.object({
  pid: z.number(),
  app: z.string(),
  matches: z.array(
    z.object({
      id: z.string(),
      role: z.string(),
      name: z.string(),
      value: z.union([z.string(), z.number()]).optional(),
      description: z.string().optional(),
      score: z.number(),
      visible: z.boolean(),
    }),
  ),
});

/** The search over a whole read of the tree: by id, or by role, name, text and description. */
async function searchTree(context: ToolContext, pid: number, args: z.infer<typeof schema>): Promise<{ node: UiNode; score: number }[]> {
  const { root } = await context.engine.observe(pid, { signal: context.signal, fresh: true });
  if (args.id !== undefined) return [{ node: nodeById(root, args.id, pid), score: 1 }];
  // findNodes knows role, name and text; description is scored here, and the weakest part decides.
  const found = findNodes(root, {
    ...(args.role === undefined ? {} : { role: args.role }),
    ...(args.name === undefined ? {} : { name: args.name }),
    ...(args.text === undefined ? {} : { text: args.text }),
  });
  const ranked = found
    .map(({ node, score }) => ({
      node,
      score: args.description === undefined ? score : Math.min(score, textScore(args.description, node.description ?? '')),
    }))
    .filter(({ score }) => score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score);
  // A cut read gives exact matches or NODE_NOT_FOUND with the reason: never the near twin of a node past the cut.
  return trustedMatches(
    root,
    ranked,
    [args.name, args.text, args.description].some((wanted) => wanted !== undefined),
  ).slice(0, args.limit ?? 20);
}

export const findTool = defineTool({
  name: 'ui_find',
  title: 'Find elements',
  describe: (args) => {
    const named = argText(args['name']) ?? argText(args['text']) ?? argText(args['description']);
    const role = argText(args['role']);
    return {
      verb: 'find',
      ...(named === undefined ? (role === undefined ? { unnamed: 'element' } : { target: role }) : { target: named, quoted: true }),
      key: argumentLine(args),
    };
  },
  description:
    'Observe: finds nodes by role and/or name, description or text (loose matching, best first), or one node by id. Returns ids with role, name, value and a score from 0 to 1; nodes not showing are marked so you can scroll to them. Cheaper than reading the whole tree when you know what you look for.',
  schema,
  output,
  effects: 'read',
  async handler(args, context) {
    const app = await resolveApp(context, args);
    // Where the app answers a role and name search itself (Collection), no tree is read.
    const quick = args.id === undefined ? await quickFind(context.platform, app.pid, { ...args, limit: args.limit ?? 20 }) : undefined;
    if (quick !== undefined)
      context.engine.noteFound(
        app.pid,
        quick.map((match) => match.node),
      );
    const scored = quick ?? (await searchTree(context, app.pid, args));
    const matches = scored.map(({ node, score }) => toMatch(node, score));
    const data = { pid: app.pid, app: app.name, matches };
    if (matches.length === 0) {
      return { success: true, message: `no matches in ${app.name} (pid ${app.pid}); try a looser name, only a role, or ui_tree`, data };
    }
    const lines = scored.map(({ node }, index) => {
      const match = matches[index] as ElementMatch;
      return `${formatNode(node, undefined, [], context.lineStyle ?? 'full')} score ${match.score}${match.visible ? '' : ' (not showing)'}`;
    });
    const maxChars = context.maxChars;
    if (maxChars === undefined) return { success: true, message: lines.join('\n'), data };
    return {
      success: true,
      message: fitText(lines.join('\n'), maxChars, 'Narrow the search with role, a longer name or a smaller limit.').value,
      data: fitJson(data, maxChars).value,
    };
  },
});
