import { readlinkSync } from 'node:fs';
import path from 'node:path';
import { desktopEntries, entriesForProgram, entriesForWmClass, type DesktopEntry } from './desktop-entries';

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

/** The names its desktop files give an app, with its program's name and its windows' WM_CLASS. */
export function namesFrom(executable: string | undefined, entries: readonly DesktopEntry[], wmClasses: readonly string[] = []): AppNames {
  const matched = [...new Set(entries)].slice(0, MAX_ENTRIES);
  const aliases = [
    ...(executable === undefined ? [] : [path.basename(executable)]),
    ...wmClasses,
    ...matched.flatMap((entry) => [entry.id.replace(/\.desktop$/, ''), ...entry.names]),
  ];
  return { aliases: [...new Set(aliases)], kinds: [...new Set(matched.flatMap((entry) => entry.kinds))] };
}

/**
 * The names a running app is known by on this system: its program, its windows' WM_CLASS, and
 * the installed desktop files that run that program or that its WM_CLASS names.
 */
export function appNames(pid: number, env: Record<string, string | undefined>, wmClasses: readonly string[] = []): AppNames | undefined {
  const executable = executableOf(pid);
  if (executable === undefined && wmClasses.length === 0) return undefined;
  const entries = desktopEntries(env);
  const byProgram = executable === undefined ? [] : entriesForProgram(entries, executable, env);
  return namesFrom(executable, [...entriesForWmClass(entries, wmClasses), ...byProgram], wmClasses);
}
