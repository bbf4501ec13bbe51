import { z } from 'zod';
import { subtreeOf } from '../../core/targets';
import { serializeTree } from '../../core/ui/serialize';
import { fitTextAndJson } from '../budget';
import { resolveTarget } from '../context';
import { parseArgs, targetShape } from '../schemas';
import { defineMcpTool } from '../tool';
import { depthNotes, limitDepth } from '../tree-depth';

const input = z.strictObject({
  ...targetShape,
  rootId: z.string().min(1).optional().describe('Only the subtree under this node id (from an earlier ui_tree or ui_find)'),
  depth: z.number().int().min(0).max(100).optional().describe('Levels below the root to include (0: the root alone); default all'),
  maxTokens: z
    .number()
    .int()
    .min(50)
    .optional()
    .describe('Token budget for the text (o200k-like tokens, estimated); the server caps it to fit its character limit too'),
});

const output = z.object({
  pid: z.number(),
  app: z.string(),
  rootId: z.string(),
  text: z.string(),
  truncated: z.boolean(),
});

/** serializeTree cuts at its token budget; a node limit would only cut earlier than the budget does. */
const MAX_NODES = 100_000;

export const SUBTREE_HINT =
  "To see a cut part, call ui_tree again with rootId set to an id named in a '… more under <id>' line (or any id above) and a small depth, or use ui_find.";

export const treeTool = defineMcpTool({
  name: 'ui_tree',
  title: 'Accessibility tree',
  description: [
    'Observe: the app\'s accessibility tree as compact text, one line per node: `[id] role "name" = value (states)`, indented by nesting.',
    'Use the ids in ui_action, ui_read and as rootId. Ids are stable while the UI stays the same, but read again after the UI changes instead of guessing.',
    "Big trees are cut: lines like '… truncated: N more under <id>' or '… depth limit: N more under <id>' name the subtree to ask for next with rootId (and depth).",
    'Also the way to verify an action: read the affected part again and check the new state.',
  ].join(' '),
  input,
  output,
  readOnly: true,
  parse: (args) => parseArgs('ui_tree', input, args),
  async run(args, context) {
    const { core, app } = await resolveTarget(context, args);
    const { root } = await core.engine.observe(app.pid, { fresh: true });
    const subject = subtreeOf(root, args.rootId, app.pid);
    const limited = limitDepth(subject, args.depth);
    const maxChars = context.options.maxChars;
    const header = `# ${app.name} (pid ${app.pid})${args.rootId === undefined ? '' : `, subtree ${subject.id}`}`;
    const render = (maxTokens: number): { text: string; cut: boolean } => {
      const body = serializeTree(limited.root, { maxTokens, maxNodes: MAX_NODES });
      const cut = limited.cuts.length > 0 || body.includes('… truncated: ');
      return { text: [header, body, ...depthNotes(limited.cuts), ...(cut ? [SUBTREE_HINT] : [])].join('\n'), cut };
    };
    const wrap = (cut: boolean) => (text: string, truncated: boolean) => ({
      pid: app.pid,
      app: app.name,
      rootId: subject.id,
      text,
      truncated: cut || truncated,
    });
    // serializeTree's budget is in rough tokens and JSON quoting adds more, so shrink the budget until both forms
    // fit: its own '… truncated: N more under <id>' lines then survive, which a plain cut of the text would drop.
    let maxTokens = Math.min(args.maxTokens ?? Number.POSITIVE_INFINITY, Math.floor(maxChars / 4));
    let rendered = render(maxTokens);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const size = Math.max(rendered.text.length, JSON.stringify(wrap(rendered.cut)(rendered.text, false)).length);
      if (size <= maxChars) break;
      maxTokens = Math.max(1, Math.floor((maxTokens * maxChars * 0.95) / size));
      rendered = render(maxTokens);
    }
    const fitted = fitTextAndJson(rendered.text, maxChars, SUBTREE_HINT, wrap(rendered.cut));
    return { text: fitted.text, structured: fitted.value };
  },
});
