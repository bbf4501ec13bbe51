import { statSync } from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../shared/errors';
import type { IndexProgress, IndexReport } from '../core/doc-search/docs-index';
import { docsServiceFromEnv } from '../core/doc-search/endpoint';
import { isHelpName } from '../core/doc-search/safe-path';
import type { Coverage } from '../core/doc-search/service';
import { platformTraits } from '../core/platform/traits';
import type { AppIdentity } from '../core/doc-search/sources';
import type { CliIo } from './context';
import { MAX_QUERY_CHARS } from '../core/tools/bounds';

type Values = Record<string, string | boolean | string[] | undefined>;

const ADD_FOLDER = 'To search other documents, add a folder: --folder DIR (repeatable), or DESKPILOT_DOCS_FOLDERS=DIR1:DIR2.';

function positiveInt(value: string | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 50) throw new ValidationError(`${option} must be a whole number from 1 to 50, not '${value}'`);
  return parsed;
}

/** "1 file", "3 files". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * One progress line on stderr at most every half second, and the last one; nothing at all
 * while every file is unchanged, so a search over an up-to-date index prints only its answer.
 */
function progressLine(io: CliIo): (progress: IndexProgress) => void {
  let last = 0;
  return ({ done, total, read }) => {
    if (read === 0) return;
    const now = performance.now();
    if (done !== total && now - last < 500) return;
    last = now;
    io.stderr(`deskpilot docs: indexing ${done}/${plural(total, 'file')}`);
  };
}

/** The --folder values, each an existing folder: a typo must not silently search nothing. */
function checkedFolders(values: Values): string[] {
  const folders = [...((values['folder'] as string[] | undefined) ?? [])];
  for (const folder of folders) {
    let isFolder: boolean;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch {
      throw new ValidationError(`--folder ${folder}: no such folder (${path.resolve(folder)})`);
    }
    if (!isFolder) throw new ValidationError(`--folder ${folder}: not a folder (${path.resolve(folder)}); give the folder the file is in`);
  }
  return folders;
}

function checkedApp(values: Values): AppIdentity | undefined {
  const name = values['app'];
  if (typeof name !== 'string') return undefined;
  if (!isHelpName(name))
    throw new ValidationError(`--app ${JSON.stringify(name)}: an app name has no '/', '\\' or '..'; for a folder of documents use --folder DIR`);
  // A name from the menu ("text editor") finds the help filed under the app's program.
  return platformTraits(process.platform).namedIdentity(name, process.env);
}

/** What the run covered, said on stderr: an app without help, folders cut at the file limit. */
function tellCoverage(io: CliIo, coverage: Omit<Coverage, 'sources'> & { cut: IndexReport['cut'] }, searchedFolders: boolean): void {
  if (coverage.noAppHelp !== undefined && searchedFolders)
    io.stderr(`deskpilot docs: ${coverage.noAppHelp.app} has no help pages or man pages (looked in ${coverage.noAppHelp.looked}); searching your folders only`);
  for (const { source, taken } of coverage.cut)
    io.stderr(`deskpilot docs: ${source.replace(/^folder:/, '')} has more files than one folder may bring; only the first ${taken} are indexed`);
}

/** Nothing to index or search: says why, naming the app and where its help was looked for. */
function nothingToDo(verb: string, coverage: Omit<Coverage, 'sources'>): ValidationError {
  if (coverage.noAppHelp !== undefined)
    return new ValidationError(`${coverage.noAppHelp.app} has no help pages or man pages: looked in ${coverage.noAppHelp.looked}. ${ADD_FOLDER}`);
  return new ValidationError(`nothing to ${verb}: give --app NAME for an app's help, or a folder of documents. ${ADD_FOLDER}`);
}

/**
 * `deskpilot docs index|search`: works without a desktop. The index lives in the data folder
 * (DESKPILOT_DATA_DIR to move it); folders come from --folder and DESKPILOT_DOCS_FOLDERS.
 */
export async function docsCommand(values: Values, positionals: string[], io: CliIo): Promise<number> {
  const [action, ...words] = positionals;
  const folders = checkedFolders(values);
  const app = checkedApp(values);
  const service = docsServiceFromEnv(io.env, (text) => io.stderr(`deskpilot docs: ${text}`));
  try {
    if (action === 'index') {
      if (words.length > 0) throw new ValidationError(`docs index takes no words; did you mean 'docs search ${words.join(' ')}'?`);
      const report = await service.update({ folders, ...(app === undefined ? {} : { app }), onProgress: progressLine(io) });
      if (report.sources.length === 0) throw nothingToDo('index', report);
      tellCoverage(io, report, true);
      io.stdout(
        `${plural(report.files, 'file')}, ${plural(report.sections, 'section')} read (${report.indexed} new or changed, ${report.unchanged} unchanged, ${report.removed} removed), ${report.skipped.length} skipped, ${report.ms} ms`,
      );
      for (const { path: file, reason } of report.skipped) io.stdout(`  skipped ${file}: ${reason}`);
      return 0;
    }
    if (action === 'search') {
      const query = words.join(' ').trim();
      if (query === '') throw new ValidationError("docs search needs a query: deskpilot docs search 'print on both sides'");
      // The same bound as the docs_search tool's: a question, not a document.
      if (query.length > MAX_QUERY_CHARS) throw new ValidationError(`the query is ${query.length} characters; at most ${MAX_QUERY_CHARS}`);
      const topN = positiveInt(values['top'] as string | undefined, '--top', 5);
      const result = await service.search(query, { topN, folders, ...(app === undefined ? {} : { app }), onProgress: progressLine(io) });
      if (result.sources.length === 0) throw nothingToDo('search', result);
      tellCoverage(io, result, true);
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
