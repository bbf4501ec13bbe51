import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../shared/errors';
import { dataDir } from '../platform/data-dir';
import { loadWorkflow } from './load';
import type { Workflow } from './schema';

/** Most workflow files one folder offers: each becomes a tool the model reads about. */
export const MAX_FOLDER_WORKFLOWS = 50;

/** The saved workflows' folder: DESKPILOT_WORKFLOWS_DIR, else `workflows` in Deskpilot's data folder. */
export function workflowsDir(env: Record<string, string | undefined>): string {
  const set = env['DESKPILOT_WORKFLOWS_DIR'];
  return set !== undefined && set !== '' ? set : path.join(dataDir(env), 'workflows');
}

/** A workflow's name in a folder: its file name without `.json`, as letters, digits, `_` and `-`. */
export const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

export interface SavedWorkflow {
  /** The file name without `.json`. */
  name: string;
  file: string;
  workflow: Workflow;
}

/**
 * The valid workflows in a folder, by file name; files that fail validation are skipped and
 * reported through `skip`, never half-read. A missing folder has none.
 */
export async function listWorkflows(dir: string, skip: (file: string, reason: string) => void = () => undefined): Promise<SavedWorkflow[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return [];
  }
  const names = entries
    .filter((entry) => entry.endsWith('.json') && FILE_NAME.test(entry.slice(0, -'.json'.length)))
    .sort()
    .slice(0, MAX_FOLDER_WORKFLOWS);
  const saved: SavedWorkflow[] = [];
  for (const entry of names) {
    const file = path.join(dir, entry);
    try {
      saved.push({ name: entry.slice(0, -'.json'.length), file, workflow: await loadWorkflow(file) });
    } catch (error) {
      skip(file, error instanceof Error ? error.message : String(error));
    }
  }
  return saved;
}

/** One saved workflow by name, refusing names that could leave the folder. */
export async function findWorkflow(dir: string, name: string): Promise<SavedWorkflow> {
  if (!FILE_NAME.test(name)) throw new ValidationError(`'${name.slice(0, 60)}' is not a workflow name (letters, digits, _ and -)`);
  const file = path.join(dir, `${name}.json`);
  return { name, file, workflow: await loadWorkflow(file) };
}
