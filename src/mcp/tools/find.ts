import { z } from 'zod';
import { findNodes } from '../../core/ui/query';
import { formatNode } from '../../core/ui/serialize';
import { fitJson, fitText } from '../budget';
import { resolveTarget } from '../context';
import { parseArgs, targetShape } from '../schemas';
import { defineMcpTool } from '../tool';

const input = z
  .strictObject({
    ...targetShape,
    role: z.string().min(1).optional().describe('Role such as button, checkbox, textfield, slider, listitem, menuitem'),
    name: z.string().min(1).optional().describe("Matched loosely against the node's name (case, typos, prefixes)"),
    text: z.string().min(1).optional().describe('Matched loosely against name, value and description'),
    limit: z.number().int().min(1).max(200).optional().describe('Most matches (default 20)'),
  })
  .refine((args) => args.role !== undefined || args.name !== undefined || args.text !== undefined, {
    message: "give at least one of 'role', 'name' or 'text'",
  });

const output = z.object({
  pid: z.number(),
  app: z.string(),
  matches: z.array(
    z.object({
      id: z.string(),
      role: z.string(),
      name: z.string(),
      value: z.union([z.string(), z.number()]).optional(),
      score: z.number(),
      visible: z.boolean(),
    }),
  ),
});

export const findTool = defineMcpTool({
  name: 'ui_find',
  title: 'Find elements',
  description:
    'Observe: finds nodes by role and/or name or text (loose matching, best first) and returns their ids with role, name, value and a score from 0 to 1. Cheaper than reading the whole tree when you know what you look for. Nodes marked "not showing" may need a scroll first.',
  input,
  output,
  readOnly: true,
  parse: (args) => parseArgs('ui_find', input, args),
  async run(args, context) {
    const { core, app } = await resolveTarget(context, args);
    const { root } = await core.engine.observe(app.pid, { fresh: true });
    const found = findNodes(root, {
      ...(args.role === undefined ? {} : { role: args.role }),
      ...(args.name === undefined ? {} : { name: args.name }),
      ...(args.text === undefined ? {} : { text: args.text }),
      limit: args.limit ?? 20,
    });
    const matches = found.map(({ node, score }) => ({
      id: node.id,
      role: node.role,
      name: node.name,
      ...(node.value === undefined || node.states.secret ? {} : { value: node.value }),
      score: Math.round(score * 100) / 100,
      visible: node.states.visible !== false,
    }));
    const lines = found.map(
      ({ node }, index) => `${matches[index]?.score.toFixed(2)}  ${formatNode(node)}${node.states.visible === false ? ' (not showing)' : ''}`,
    );
    const text = lines.length === 0 ? `no matches in ${app.name} (pid ${app.pid}); try a looser name, only a role, or ui_tree` : lines.join('\n');
    const maxChars = context.options.maxChars;
    return {
      text: fitText(text, maxChars, 'Narrow the search with role, a longer name or a smaller limit.').value,
      structured: fitJson({ pid: app.pid, app: app.name, matches }, maxChars).value,
    };
  },
});
