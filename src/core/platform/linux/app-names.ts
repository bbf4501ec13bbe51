import { readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { identityText } from '../identity-text';
import { desktopEntries, entriesForProgram, entriesForWmClass, type DesktopEntry } from './desktop-entries';

/** What else users call a running app, beside its AT-SPI name and window titles. */
export interface AppNames {
  /** The process's program, its desktop files' ids, Names and StartupWMClass. */
  aliases: string[];
  /** Its desktop files' GenericName and Keywords: weaker, several apps share them. */
  kinds: string[];
  /** The one desktop file this process is, when the evidence names exactly one. */
  desktopId?: string;
  /** Its program's name: the executable's basename, else the kernel's comm (cut to 15 bytes). */
  processName?: string;
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

/** The kernel's name for the process: readable where /proc/<pid>/exe is not (another user's process). */
function commOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').slice(0, 64).trim();
  } catch {
    return undefined;
  }
}

/** The one id among these entries; else the one among those that run the program bare (the app, not a mode of it). */
function oneId(entries: readonly DesktopEntry[]): string | undefined {
  for (const candidates of [entries, entries.filter((entry) => entry.bare === true)]) {
    const ids = new Set(candidates.map((entry) => entry.id));
    if (ids.size === 1) return [...ids][0];
  }
  return undefined;
}

/**
 * The desktop file a process is: the one its windows' WM_CLASS names, else the one that runs
 * its program, else the one of those that runs it with no options (mousepad's own entry, not
 * its `mousepad --preferences` settings entry). Still two at the first rung that finds any is
 * no answer: a workflow must not record a guess as the app's identity.
 */
export function desktopIdFrom(byWmClass: readonly DesktopEntry[], byProgram: readonly DesktopEntry[]): string | undefined {
  for (const rung of [byWmClass, byProgram]) {
    if (rung.length > 0) return identityText(oneId(rung));
  }
  return undefined;
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
  const processName = identityText(executable === undefined ? commOf(pid) : path.basename(executable));
  if (executable === undefined && wmClasses.length === 0) return processName === undefined ? undefined : { aliases: [], kinds: [], processName };
  const entries = desktopEntries(env);
  const byProgram = executable === undefined ? [] : entriesForProgram(entries, executable, env);
  const byWmClass = entriesForWmClass(entries, wmClasses);
  const desktopId = desktopIdFrom(byWmClass, byProgram);
  return {
    ...namesFrom(executable, [...byWmClass, ...byProgram], wmClasses),
    ...(desktopId === undefined ? {} : { desktopId }),
    ...(processName === undefined ? {} : { processName }),
  };
}
