import { readlinkSync } from 'node:fs';
import path from 'node:path';
import { desktopEntries, entriesForProgram, type DesktopEntry } from './desktop-entries';

/** What else users call a running app, beside its AT-SPI name and window titles. */
export interface AppNames {
  /** The process's program, its desktop files' ids, Names and StartupWMClass. */
  aliases: string[];
  /** Its desktop files' GenericName and Keywords: weaker, several apps share them. */
  kinds: string[];
}

/** A LibreOffice process matches its five desktop files; more than this is a generic program, not evidence. */
const MAX_ENTRIES = 12;

/** The process's program file; undefined when it has exited or is someone else's. */
function executableOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '');
  } catch {
    return undefined;
  }
}

/** The names a desktop file gives, for an app whose program it runs. */
export function namesFrom(executable: string, entries: readonly DesktopEntry[]): AppNames {
  const matched = entries.slice(0, MAX_ENTRIES);
  const aliases = [path.basename(executable), ...matched.flatMap((entry) => [entry.id.replace(/\.desktop$/, ''), ...entry.names])];
  return { aliases: [...new Set(aliases)], kinds: [...new Set(matched.flatMap((entry) => entry.kinds))] };
}

/** The names a running app is known by on this system, from its program and the installed desktop files. */
export function appNames(pid: number, env: Record<string, string | undefined>): AppNames | undefined {
  const executable = executableOf(pid);
  if (executable === undefined) return undefined;
  return namesFrom(executable, entriesForProgram(desktopEntries(env), executable, env));
}
