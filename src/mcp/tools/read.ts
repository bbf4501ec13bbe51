import { z } from 'zod';
import { subtreeOf } from '../../core/targets';
import { ownText } from '../../core/ui/text';
import { walk } from '../../core/ui/tree-index';
import { fitTextAndJson } from '../budget';
import { resolveTarget } from '../context';
import { parseArgs, targetShape } from '../schemas';
import { defineMcpTool } from '../tool';

const input = z.strictObject({
  ...targetShape,
  id: z.string().min(1).describe('The node id, from ui_tree or ui_find'),
});

const output = z.object({
  pid: z.number(),
  app: z.string(),
  id: z.string(),
  role: z.string(),
  name: z.string(),
  text: z.string(),
  truncated: z.boolean(),
});

export const readTool = defineMcpTool({
  name: 'ui_read',
  title: 'Read element text',
  description:
    "Observe: the full text of one node and everything under it (names, values, descriptions), one piece a line. The tree cuts long names and values; read them whole here, such as a document's text or a dialog's message.",
  input,
  output,
  readOnly: true,
  parse: (args) => parseArgs('ui_read', input, args),
  async run(args, context) {
    const { core, app } = await resolveTarget(context, args);
    const { root } = await core.engine.observe(app.pid, { fresh: true });
    const node = subtreeOf(root, args.id, app.pid);
    const lines: string[] = [];
    for (const each of walk(node)) lines.push(...ownText(each));
    const full = lines.length === 0 ? `[${node.id}] ${node.role} has no text` : lines.join('\n');
    const hint = `To read less at a time, call ui_tree with rootId ${node.id} and depth 1, then ui_read a child id.`;
    const fitted = fitTextAndJson(full, context.options.maxChars, hint, (text, truncated) => ({
      pid: app.pid,
      app: app.name,
      id: node.id,
      role: node.role,
      name: node.name,
      text,
      truncated,
    }));
    return { text: fitted.text, structured: fitted.value };
  },
});
