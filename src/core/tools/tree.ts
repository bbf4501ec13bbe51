import { z } from 'zod';
import { DEFAULT_SERIALIZE, serializeTree } from '../ui/serialize';
import { cutNote } from '../ui/read-cut';
import { fitTextAndJson } from './budget';
import { resolveApp, targetFields } from './target';
import { observeForText } from './tree-read';
import { depthNotes, limitDepth } from './tree-depth';
import { defineTool } from './types';
import { MAX_ID_CHARS } from './bounds';
import { argText, argumentLine } from './gist';

const schema = z.strictObject({
  ...targetFields,
  rootId: z.string().min(1).max(MAX_ID_CHARS).optional().describe('Only the subtree under this node id (from an earlier ui_tree or ui_find)'),
  depth: z.number().int().min(0).max(100).optional().describe('Levels below the root to include (0: the root alone); default all'),
  maxNodes: z.number().int().min(1).max(2000).optional().describe(`Most node lines (default ${DEFAULT_SERIALIZE.maxNodes})`),
  maxTokens: z
    .number()
    .int()
    .min(50)
    .max(20_000)
    .optional()
    .describe(`Token budget, counted as GPT-4o-style tokenizers do (default ${DEFAULT_SERIALIZE.maxTokens})`),
});

const output = z.object({ pid: z.number(), app: z.string(), rootId: z.string(), text: z.string(), truncated: z.boolean() });

const SUBTREE_HINT =
  "To see a cut part, call ui_tree again with rootId set to an id named in a '… more under <id>' line (or any id above) and a small depth, or use ui_find.";

export const treeTool = defineTool({
  name: 'ui_tree',
  title: 'Accessibility tree',
  describe: (args) => {
    const app = argText(args['app']);
    return { verb: 'look', ...(app === undefined ? {} : { target: app }), unnamed: 'window', key: argumentLine(args) };
  },
  description: [
    "Observe: the app's accessibility tree as compact text, one line per node: `id role name = value (states)`, indented by nesting; a name is quoted when it holds punctuation.",
    'Use the ids in ui_action, ui_read and as rootId. Ids are stable while the UI stays the same, but read again after the UI changes instead of guessing.',
    "Big trees are cut, the outline first (headings, regions, forms): lines like '… truncated: N more under <id>' or '… depth limit: N more under <id>' name the subtree to ask for next with rootId (and depth).",
    'Also the way to verify an action: read the affected part again and check the new state.',
  ].join(' '),
  promptSnippet: 'call it again with rootId for a truncated part, rather than guessing ids',
  schema,
  output,
  effects: 'read',
  safety: { target: 'app', readRoot: (args) => args.rootId },
  async handler(args, context) {
    const app = await resolveApp(context, args);
    // Read only what the budget can print, outline first, where the platform reads on demand.
    const { subject, cut: readCutMark } = await observeForText(context.engine, app.pid, {
      rootId: args.rootId,
      // A result cut to maxChars prints no more than a quarter of it in tokens: no need to read more.
      maxTokens: Math.min(
        args.maxTokens ?? DEFAULT_SERIALIZE.maxTokens,
        context.maxChars === undefined ? Number.POSITIVE_INFINITY : Math.ceil(context.maxChars / 4),
      ),
      maxNodes: args.maxNodes ?? DEFAULT_SERIALIZE.maxNodes,
      signal: context.signal,
    });
    const limited = limitDepth(subject, args.depth);
    const header = `# ${app.name} (pid ${app.pid})${args.rootId === undefined ? '' : `, subtree ${subject.id}`}`;
    const render = (maxTokens: number): { text: string; cut: boolean } => {
      const body = serializeTree(limited.root, { maxTokens, maxNodes: args.maxNodes ?? DEFAULT_SERIALIZE.maxNodes, style: context.lineStyle ?? 'full' });
      // A read the platform cut is said first: the '… more' counts below cover only what was read.
      const readCut = readCutMark === undefined ? [] : [`… ${cutNote(readCutMark)}.`];
      const cut = readCut.length > 0 || limited.cuts.length > 0 || body.includes('… truncated: ');
      return { text: [header, ...readCut, body, ...depthNotes(limited.cuts), ...(cut ? [SUBTREE_HINT] : [])].join('\n'), cut };
    };
    const wrap = (cut: boolean) => (text: string, truncated: boolean) => ({
      pid: app.pid,
      app: app.name,
      rootId: subject.id,
      text,
      truncated: cut || truncated,
    });
    let maxTokens = args.maxTokens ?? DEFAULT_SERIALIZE.maxTokens;
    let rendered = render(maxTokens);
    const maxChars = context.maxChars;
    if (maxChars === undefined) return { success: true, message: rendered.text, data: wrap(rendered.cut)(rendered.text, false) };
    // The budget is in rough tokens and JSON quoting adds more, so shrink it until both forms fit: the
    // tree's own '… truncated: N more under <id>' lines then survive, which a plain cut of the text would drop.
    maxTokens = Math.min(maxTokens, Math.floor(maxChars / 4));
    rendered = render(maxTokens);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const size = Math.max(rendered.text.length, JSON.stringify(wrap(rendered.cut)(rendered.text, false)).length);
      if (size <= maxChars) break;
      maxTokens = Math.max(1, Math.floor((maxTokens * maxChars * 0.95) / size));
      rendered = render(maxTokens);
    }
    const fitted = fitTextAndJson(rendered.text, maxChars, SUBTREE_HINT, wrap(rendered.cut));
    return { success: true, message: fitted.text, data: fitted.value };
  },
});
