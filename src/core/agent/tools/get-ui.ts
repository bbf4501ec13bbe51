import { z } from 'zod';
import { serializeTree } from '../../ui/serialize';
import { nodeById, pidField, resolvePid } from './target';
import { defineTool } from './types';

const schema = z.strictObject({
  pid: pidField,
  rootId: z.string().min(1).optional().describe('Only the subtree under this node id'),
  maxNodes: z.number().int().min(1).max(2000).optional().describe('Most node lines (default 500)'),
  maxTokens: z.number().int().min(50).max(20_000).optional().describe('Token budget, counted as GPT-4o-style tokenizers do (default 6000)'),
});

export const getUiTool = defineTool({
  name: 'get_ui',
  description:
    'The compact accessibility tree of an app: one line per node, `id role "name" = value (states)`, the id first. Cut subtrees end with "… truncated: N more under <id>"; call again with that rootId to see them.',
  promptSnippet: 'call it again with rootId for a truncated part, rather than guessing ids',
  schema,
  async handler(args, context) {
    const pid = await resolvePid(context, args.pid);
    const { root } = await context.engine.observe(pid, { signal: context.signal, fresh: true });
    const start = args.rootId === undefined ? root : nodeById(root, args.rootId, pid);
    const text = serializeTree(start, {
      ids: 'bare',
      ...(args.maxNodes === undefined ? {} : { maxNodes: args.maxNodes }),
      ...(args.maxTokens === undefined ? {} : { maxTokens: args.maxTokens }),
    });
    return { success: true, message: text, data: { pid, rootId: start.id } };
  },
});
