import { ValidationError } from '../shared/errors';
import type { IndexProgress } from '../core/docs/docs-index';
import { docsServiceFromEnv } from '../core/docs/endpoint';
import type { CliIo } from './context';
import { MAX_QUERY_CHARS } from '../core/tools/bounds';

type Values = Record<string, string | boolean | string[] | undefined>;

function positiveInt(value: string | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 50) throw new ValidationError(`${option} must be a whole number from 1 to 50, not '${value}'`);
  return parsed;
}

/** One progress line on stderr at most every half second, and the last one. */
function progressLine(io: CliIo): (progress: IndexProgress) => void {
  let last = 0;
  return ({ done, total }) => {
    const now = performance.now();
    if (done !== total && now - last < 500) return;
    last = now;
    io.stderr(`deskpilot docs: indexing ${done}/${total} files`);
  };
}

/**
 * `deskpilot docs index|search`: works without a desktop. The index lives in the data folder
 * (DESKPILOT_DATA_DIR to move it); folders come from --folder and DESKPILOT_DOCS_FOLDERS.
 */
export async function docsCommand(values: Values, positionals: string[], io: CliIo): Promise<number> {
  const [action, ...words] = positionals;
  const folders = [...((values['folder'] as string[] | undefined) ?? [])];
  const app = typeof values['app'] === 'string' ? { name: values['app'] } : undefined;
  const service = docsServiceFromEnv(io.env, (text) => io.stderr(`deskpilot docs: ${text}`));
  try {
    if (action === 'index') {
      if (words.length > 0) throw new ValidationError(`docs index takes no words; did you mean 'docs search ${words.join(' ')}'?`);
      const report = await service.update({ folders, ...(app === undefined ? {} : { app }), onProgress: progressLine(io) });
      if (report.sources.length === 0) throw new ValidationError('nothing to index: give --folder DIR or --app NAME (or set DESKPILOT_DOCS_FOLDERS)');
      io.stdout(
        `${report.files} files, ${report.sections} sections read (${report.indexed} new or changed, ${report.unchanged} unchanged, ${report.removed} removed), ${report.skipped.length} skipped, ${report.ms} ms`,
      );
      for (const { path, reason } of report.skipped) io.stdout(`  skipped ${path}: ${reason}`);
      return 0;
    }
    if (action === 'search') {
      const query = words.join(' ').trim();
      if (query === '') throw new ValidationError("docs search needs a query: deskpilot docs search 'print on both sides'");
      // The same bound as the docs_search tool's: a question, not a document.
      if (query.length > MAX_QUERY_CHARS) throw new ValidationError(`the query is ${query.length} characters; at most ${MAX_QUERY_CHARS}`);
      const topN = positiveInt(values['top'] as string | undefined, '--top', 5);
      const result = await service.search(query, { topN, folders, ...(app === undefined ? {} : { app }), onProgress: progressLine(io) });
      if (result.sources.length === 0) throw new ValidationError('nothing to search: give --folder DIR or --app NAME (or set DESKPILOT_DOCS_FOLDERS)');
      if (values['json'] === true) io.stdout(JSON.stringify(result.hits, null, 2));
      else if (result.hits.length === 0) io.stdout(`no matches for "${query}" in ${result.sources.join(', ')}`);
      else for (const hit of result.hits) io.stdout(`${hit.title}${hit.section === '' ? '' : ` › ${hit.section}`}\n  ${hit.source}\n  ${hit.snippet}\n`);
      if (result.note !== undefined) io.stderr(`deskpilot docs: ${result.note}`);
      return result.hits.length === 0 ? 1 : 0;
    }
    throw new ValidationError(`docs needs 'index' or 'search', not '${action ?? ''}'`);
  } finally {
    service.close();
  }
}
