import { z } from 'zod';
import { ownText } from '../ui/text';
import { walk } from '../ui/tree-index';
import { fitTextAndJson } from './budget';
import { nodeById, resolveApp, targetFields } from './target';
import { defineTool } from './types';
import { MAX_ID_CHARS } from './bounds';
import { argumentLine } from './gist';

/** Where a program sets no budget of its own (the agent), a read stops here; maxChars asks for more. */
const DEFAULT_MAX_CHARS = 4000;

const schema = z.strictObject({
  ...targetFields,
  id: z.string().min(1).max(MAX_ID_CHARS).describe('The node id, from ui_tree or ui_find'),
  maxChars: z.number().int().min(100).max(50_000).optional().describe(`Most characters of text (default ${DEFAULT_MAX_CHARS})`),
  offset: z.number().int().min(0).max(10_000_000).optional().describe('Characters to skip: a read that was cut says the offset to read on from'),
});

const output = z.object({
  pid: z.number(),
  app: z.string(),
  id: z.string(),
  role: z.string(),
  name: z.string(),
  text: z.string(),
  truncated: z.boolean(),
  offset: z.number().optional(),
  nextOffset: z.number().optional(),
});

export const readTool = defineTool({
  name: 'ui_read',
  title: 'Read element text',
  describe: (args) => ({ verb: 'read', unnamed: 'element', key: argumentLine(args) }),
  description:
    "Observe: the full text of one node and everything under it (names, values, descriptions), one piece a line. The tree cuts long names and values; read them whole here, such as a document's text or a dialog's message.",
  schema,
  output,
  effects: 'read',
  safety: { target: 'app', readRoot: (args) => args.id },
  async handler(args, context) {
    const app = await resolveApp(context, args);
    const { root, refs } = await context.engine.observe(app.pid, { signal: context.signal, fresh: true });
    const node = nodeById(root, args.id, app.pid);
    const lines: string[] = [];
    const limit = args.maxChars ?? context.maxChars ?? DEFAULT_MAX_CHARS;
    const offset = args.offset ?? 0;
    const { accessibility } = context.platform;
    for (const each of walk(node)) {
      // The tree holds only the start of a long text; the whole of it is asked of the node itself.
      const whole =
        each.valueTruncated === true && accessibility.readText !== undefined
          ? await accessibility.readText(refs.get(each.id), each, offset + limit + 1)
          : undefined;
      lines.push(...ownText(whole === undefined ? each : { ...each, value: whole }));
    }
    const full = lines.length === 0 ? `[${node.id}] ${node.role} has no text` : lines.join('\n');
    // The tool's own limit counts characters of text; a program's budget (MCP) also bounds the JSON around it.
    // A long document is read in pages: each cut says where the next page starts.
    const chars = [...full].slice(offset);
    const cut = chars.length > limit;
    const nextOffset = offset + limit;
    const text = cut
      ? `${chars.slice(0, limit).join('')}\n… truncated: ${chars.length - limit} more characters; read on with offset ${nextOffset}`
      : offset > 0 && chars.length === 0
        ? `[${node.id}] has no text past offset ${offset}`
        : chars.join('');
    const wrap = (shown: string, truncated: boolean) => ({
      pid: app.pid,
      app: app.name,
      id: node.id,
      role: node.role,
      name: node.name,
      text: shown,
      truncated: cut || truncated,
      ...(offset > 0 ? { offset } : {}),
      ...(cut ? { nextOffset } : {}),
    });
    if (context.maxChars === undefined) return { success: true, message: text, data: wrap(text, false) };
    const hint = `To read less at a time, call ui_tree with rootId ${node.id} and depth 1, then ui_read a child id.`;
    const fitted = fitTextAndJson(text, context.maxChars, hint, wrap);
    return { success: true, message: fitted.text, data: fitted.value };
  },
});
