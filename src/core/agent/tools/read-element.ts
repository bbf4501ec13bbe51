import { z } from 'zod';
import { ownText } from '../../ui/text';
import { walk } from '../../ui/tree-index';
import { nodeById, pidField, resolvePid } from './target';
import { defineTool } from './types';

const DEFAULT_MAX_CHARS = 4000;

const schema = z.strictObject({
  pid: pidField,
  id: z.string().min(1).describe('The node id'),
  maxChars: z.number().int().min(100).max(50_000).optional().describe(`Most characters of text (default ${DEFAULT_MAX_CHARS})`),
});

export const readElementTool = defineTool({
  name: 'read_element',
  description:
    "The full text of one node: its name, value and description, then its descendants' text, up to a budget. The tree cuts long text; use this to read it whole.",
  schema,
  async handler(args, context) {
    const pid = await resolvePid(context, args.pid);
    const { root } = await context.engine.observe(pid, { signal: context.signal, fresh: true });
    const node = nodeById(root, args.id, pid);
    const maxChars = args.maxChars ?? DEFAULT_MAX_CHARS;
    const lines: string[] = [];
    for (const each of walk(node)) lines.push(...ownText(each));
    const full = lines.join('\n');
    const chars = [...full];
    const truncated = chars.length > maxChars;
    const text = truncated ? `${chars.slice(0, maxChars).join('')}\n… truncated: ${chars.length - maxChars} more characters` : full;
    return {
      success: true,
      message: text === '' ? `[${node.id}] ${node.role} has no text` : text,
      data: {
        id: node.id,
        role: node.role,
        name: node.name,
        ...(node.value === undefined || node.states.secret ? {} : { value: node.value }),
        ...(node.description === undefined ? {} : { description: node.description }),
        text,
        truncated,
      },
    };
  },
});
