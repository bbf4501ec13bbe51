import { z } from 'zod';
import { DeskpilotError, ValidationError } from '../../shared/errors';
import { isHelpName } from '../doc-search/safe-path';
import { fitText } from './budget';
import { visibleApps, matchApp } from './target';
import { defineTool } from './types';
import { MAX_NAME_CHARS, MAX_QUERY_CHARS } from './bounds';
import { argText, argumentLine } from './gist';

const schema = z.strictObject({
  query: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe('The question in the user\'s words, such as "print on both sides"'),
  topN: z.number().int().min(1).max(20).optional().describe('How many snippets (default 5)'),
  app: z
    .string()
    .min(1)
    .max(MAX_NAME_CHARS)
    .optional()
    .describe(
      "The app whose help to search: a running app's name, or the name its help is filed under (gnome-calculator); default: the app the user is in (the user's folders are always searched)",
    ),
});

const output = z.object({
  mode: z.enum(['hybrid', 'full-text']),
  note: z.string().optional(),
  hits: z.array(z.object({ source: z.string(), title: z.string(), section: z.string(), score: z.number(), snippet: z.string() })),
});

export const docsSearchTool = defineTool({
  name: 'search_docs',
  mcpName: 'docs_search',
  title: 'Search documentation',
  describe: (args) => ({ verb: 'search_help', target: argText(args['query']) ?? '', quoted: true, key: argumentLine(args) }),
  description:
    "Search documentation: the target app's own help pages and man pages, and the user's document folders. Returns the best snippets with their page and section. Use it for how-do-I questions about an app, and cite the page.",
  promptSnippet: 'For "how do I…" questions about the app, call search_docs first and answer from its snippets, citing the page (title › section).',
  schema,
  output,
  effects: 'read',
  safety: { readRoot: () => null },
  async handler(args, context) {
    if (context.docs === undefined) throw new DeskpilotError('UI_NOT_AVAILABLE', 'documentation search is not set up in this program');
    const apps = args.app !== undefined || context.targetPid !== undefined ? await visibleApps(context) : [];
    const app = args.app !== undefined ? matchApp(apps, args.app) : apps.find((entry) => entry.pid === context.targetPid);
    // Not a visible app, so only a help name: one path segment, or `../../home/ada` would be read as documentation.
    if (app === undefined && args.app !== undefined && !isHelpName(args.app))
      throw new ValidationError(`app ${JSON.stringify(args.app)} is neither a running app nor a help name (a help name has no '/', '\\' or '..')`);
    const identity =
      app === undefined ? (args.app === undefined ? undefined : context.platform.namedIdentity(args.app, process.env)) : context.platform.appIdentity(app);
    const result = await context.docs.search(args.query, {
      topN: args.topN ?? 5,
      ...(identity === undefined ? {} : { app: identity }),
      signal: context.signal,
    });
    // Sized to the answer budget: whole snippets are dropped from the end until the data fits.
    const hits = [...result.hits];
    const budget = context.maxChars ?? Number.POSITIVE_INFINITY;
    while (hits.length > 1 && JSON.stringify(hits).length > budget * 0.6) hits.pop();
    const lines = hits.map((hit, index) => `${index + 1}. ${hit.title}${hit.section === '' ? '' : ` › ${hit.section}`} (${hit.source})\n   ${hit.snippet}`);
    const noHelp = result.noAppHelp === undefined ? '' : `${result.noAppHelp.app} has no help pages or man pages (looked in ${result.noAppHelp.looked}). `;
    const head =
      hits.length === 0
        ? `${noHelp}No documentation matched "${args.query}"${identity === undefined ? '' : ` in ${identity.name}'s help`}. Searched: ${result.sources.length === 0 ? 'nothing (no app help found and no folders set)' : result.sources.join(', ')}.`
        : `${noHelp}${hits.length} snippet(s) for "${args.query}":`;
    const cut = result.cut.map(({ source, taken }) => `\n(${source} has more files than are indexed; only the first ${taken} are searched)`).join('');
    const note = (result.mode === 'full-text' && result.note !== undefined ? `\n(${result.note})` : '') + cut;
    const data = { mode: result.mode, ...(result.note === undefined ? {} : { note: result.note }), hits };
    return { success: true, message: fitText(`${head}\n${lines.join('\n')}${note}`.trim(), budget * 0.4, 'Ask for fewer snippets (topN).').value, data };
  },
});
