import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What an installed app's desktop file says it is called. Users name apps the way their menu
 * does ("Writer", "Text Editor"), not by the process (soffice.bin) or the AT-SPI name.
 */
export interface DesktopEntry {
  /** The desktop file id: `libreoffice-writer.desktop`, `kde4-foo.desktop` for kde4/foo.desktop. */
  id: string;
  /** Name and StartupWMClass: what the app is called. */
  names: string[];
  /** GenericName and Keywords: what kind of app it is, a weaker claim ("Text Editor" fits many). */
  kinds: string[];
  /** StartupWMClass: the WM_CLASS its windows carry. */
  wmClass?: string;
  /** Exec's program as written (`libreoffice`, `/usr/lib/firefox-esr/firefox-esr`). */
  program?: string;
  /**
   * Exec runs the program with nothing but field codes (`mousepad %U`): the app's main entry,
   * not one of its modes (`mousepad --preferences`, `libreoffice --writer`).
   */
  bare?: true;
}

/** Desktop files are a few kB; a larger one is not a desktop file, and is not read whole. */
const MAX_FILE_BYTES = 64 * 1024;
/** A system has a few hundred; the walk stops here on a folder someone filled. */
const MAX_FILES = 5000;
/** Subfolders of applications/ (kde4/…) give ids with dashes; deeper is not the spec's. */
const MAX_DEPTH = 2;
const MAX_VALUE_CHARS = 200;
const MAX_KEYWORDS = 30;
/** Programs that run something else: Exec=sh -c … or python3 app.py says nothing about which app the process is. */
const RUNNERS = new Set(['sh', 'bash', 'dash', 'env', 'python', 'python3', 'perl', 'java', 'flatpak', 'snap', 'gjs', 'node', 'wine', 'mono']);

/** Where desktop files live, most preferred first: $XDG_DATA_HOME, then $XDG_DATA_DIRS (spec defaults when unset). */
export function applicationDirs(env: Record<string, string | undefined>): string[] {
  const home = env['XDG_DATA_HOME'] || (env['HOME'] ? path.join(env['HOME'], '.local/share') : undefined);
  const dirs = (env['XDG_DATA_DIRS'] || '/usr/local/share:/usr/share').split(':');
  // Relative entries are ignored by the spec: they would depend on the current folder.
  return [...new Set([home, ...dirs].filter((dir): dir is string => dir !== undefined && path.isAbsolute(dir)))].map((dir) => path.join(dir, 'applications'));
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** A value with its control characters gone and its length bounded: desktop files are anyone's text. */
function clean(value: string): string {
  return value.replace(CONTROL, ' ').trim().slice(0, MAX_VALUE_CHARS);
}

/** The spec's field codes (%f, %U, …): placeholders for files, not options that change what the app is. */
const FIELD_CODE = /^%[fFuUdDnNickvm]$/;

/** Exec's program (the first word that is not `env` or a VAR=value, quotes removed) and whether only field codes follow it. */
function execParts(exec: string): { program?: string; bare: boolean } {
  const words = exec.match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? [];
  let index = 0;
  if (words[index] === 'env') {
    index += 1;
    while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] as string)) index += 1;
  }
  const first = words[index];
  if (first === undefined) return { bare: false };
  const program = first.startsWith('"') ? first.slice(1, -1).replace(/\\(.)/g, '$1') : first;
  if (RUNNERS.has(path.basename(program))) return { bare: false };
  return { program, bare: words.slice(index + 1).every((word) => FIELD_CODE.test(word)) };
}

/** The [Desktop Entry] group of an application's desktop file; undefined for a hidden or non-application entry. */
export function parseDesktopEntry(text: string, id: string): DesktopEntry | undefined {
  const keys = new Map<string, string>();
  let inEntry = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[')) {
      // The main group comes first; the actions' groups after it name actions, not the app.
      if (inEntry) break;
      inEntry = trimmed === '[Desktop Entry]';
      continue;
    }
    const equals = trimmed.indexOf('=');
    if (!inEntry || trimmed.startsWith('#') || equals < 1) continue;
    const key = trimmed.slice(0, equals).trim();
    // Only unlocalised keys: the first of a key wins, and a long file cannot flood the map.
    if (!keys.has(key) && /^[A-Za-z]+$/.test(key)) keys.set(key, trimmed.slice(equals + 1));
  }
  if (keys.get('Type') !== 'Application' || keys.get('Hidden') === 'true') return undefined;
  const names = [keys.get('Name'), keys.get('StartupWMClass')].filter((value) => value !== undefined).map(clean);
  const keywords = (keys.get('Keywords') ?? '').split(';').slice(0, MAX_KEYWORDS);
  const kinds = [keys.get('GenericName'), ...keywords].filter((value) => value !== undefined).map(clean);
  const exec = keys.get('Exec');
  const { program, bare } = exec === undefined ? { program: undefined, bare: false } : execParts(clean(exec));
  const wmClass = clean(keys.get('StartupWMClass') ?? '');
  return {
    id,
    names: names.filter((name) => name !== ''),
    kinds: kinds.filter((kind) => kind !== ''),
    ...(wmClass === '' ? {} : { wmClass }),
    ...(program === undefined ? {} : { program }),
    ...(bare ? { bare: true as const } : {}),
  };
}

function walk(dir: string, prefix: string, depth: number, found: Map<string, string>, budget: { files: number }): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (budget.files <= 0) return;
    const file = path.join(dir, name);
    if (name.endsWith('.desktop')) {
      budget.files -= 1;
      const id = `${prefix}${name}`;
      // The first folder holding an id wins: the user's own file shadows the system's.
      if (!found.has(id)) found.set(id, file);
    } else if (depth > 1 && !name.startsWith('.')) {
      try {
        if (statSync(file).isDirectory()) walk(file, `${prefix}${name}-`, depth - 1, found, budget);
      } catch {
        // Gone or unreadable: not an app.
      }
    }
  }
}

function readEntry(file: string, id: string): DesktopEntry | undefined {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return undefined;
    return parseDesktopEntry(readFileSync(file, 'utf8'), id);
  } catch {
    return undefined;
  }
}

/** Every application desktop file under these folders, each read once. */
export function readDesktopEntries(dirs: readonly string[]): DesktopEntry[] {
  const found = new Map<string, string>();
  const budget = { files: MAX_FILES };
  for (const dir of dirs) walk(dir, '', MAX_DEPTH, found, budget);
  return [...found].map(([id, file]) => readEntry(file, id)).filter((entry) => entry !== undefined);
}

const cache = new Map<string, DesktopEntry[]>();

/** The installed apps' desktop entries, read at most once per process for a set of folders. */
export function desktopEntries(env: Record<string, string | undefined>): DesktopEntry[] {
  const dirs = applicationDirs(env);
  const key = dirs.join('\n');
  let entries = cache.get(key);
  if (entries === undefined) {
    entries = readDesktopEntries(dirs);
    cache.set(key, entries);
  }
  return entries;
}

/** A program's name without the wrapper suffixes launchers add: soffice.bin, firefox-bin, foo.real. */
function stem(file: string): string {
  return path.basename(file).replace(/(\.bin|-bin|\.real|\.wrapped)$/, '');
}

function resolveProgram(program: string, env: Record<string, string | undefined>): string | undefined {
  const candidates = path.isAbsolute(program)
    ? [program]
    : program.includes('/')
      ? []
      : (env['PATH'] ?? '')
          .split(':')
          .filter((dir) => path.isAbsolute(dir))
          .map((dir) => path.join(dir, program));
  for (const candidate of candidates) {
    try {
      return realpathSync(candidate);
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

const resolved = new Map<string, string | undefined>();

/** The program's real file, through $PATH and symlinks (libreoffice → …/program/soffice), once per process. */
function realProgram(program: string, env: Record<string, string | undefined>): string | undefined {
  if (!resolved.has(program)) resolved.set(program, resolveProgram(program, env));
  return resolved.get(program);
}

/**
 * The entries whose Exec runs this process: the same file, or the same program name once
 * launcher suffixes are dropped (LibreOffice's desktop files run `libreoffice`, a link to the
 * `soffice` script, which runs soffice.bin).
 */
export function entriesForProgram(entries: readonly DesktopEntry[], executable: string, env: Record<string, string | undefined>): DesktopEntry[] {
  const own = stem(executable);
  return entries.filter((entry) => {
    if (entry.program === undefined) return false;
    const real = realProgram(entry.program, env);
    return real === executable || stem(entry.program) === own || (real !== undefined && stem(real) === own);
  });
}

function folded(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The installed app a typed name means, by its desktop files: a Name, StartupWMClass, desktop
 * id (whole or its last part: TextEditor) or program equal to the name, case aside. Undefined
 * when none fits, or when the fitting entries run two different programs: a guess would
 * search the wrong app's help.
 */
export function installedApp(name: string, entries: readonly DesktopEntry[]): { program: string; desktopId: string } | undefined {
  const wanted = folded(name);
  const fits = entries.filter((entry) => {
    if (entry.program === undefined) return false;
    const stemOfId = entry.id.replace(/\.desktop$/, '');
    const keys = [...entry.names, stemOfId, stemOfId.split('.').at(-1) ?? '', path.basename(entry.program)];
    return keys.some((key) => folded(key) === wanted);
  });
  const programs = new Set(fits.map((entry) => path.basename(entry.program as string)));
  const first = fits[0];
  return programs.size === 1 && first !== undefined ? { program: first.program as string, desktopId: first.id } : undefined;
}

/**
 * The entries a window's WM_CLASS names, as docks tie windows to desktop files: StartupWMClass
 * equal to the class or instance, else a desktop id (less `.desktop`) equal to it, case aside.
 */
export function entriesForWmClass(entries: readonly DesktopEntry[], wmClasses: readonly string[]): DesktopEntry[] {
  const classes = new Set(wmClasses.map(folded));
  if (classes.size === 0) return [];
  return entries.filter(
    (entry) => (entry.wmClass !== undefined && classes.has(folded(entry.wmClass))) || classes.has(folded(entry.id.replace(/\.desktop$/, ''))),
  );
}
