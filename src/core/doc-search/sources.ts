import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { formatOf } from './parse/format';
import { isHelpName, staysWithin } from './safe-path';
import type { SourceKind } from './types';
import type { AppIdentity } from '../platform/types';

/** A set of files the index keeps together: removing one from disk removes it from the index. */
export interface Source {
  kind: SourceKind;
  /** `app-help:gnome-calculator`, `man:gnome-calculator`, `folder:/home/ada/notes`. */
  key: string;
  files: string[];
  /** The folders the files were found under; the index reads no file whose real path leaves them. */
  roots: string[];
  /** Set when the folder held more files than the walk takes (WALK_LIMIT): how many it took. */
  cut?: number;
}

/** Files one folder contributes at most, so a home folder given by mistake cannot run away. */
export const WALK_LIMIT = 20_000;

export interface SourceRoots {
  /** Where Linux keeps help by language: /usr/share/help. */
  help: string[];
  man: string[];
  /** Where macOS apps live, for `--app Name`. */
  applications: string[];
}

export const SYSTEM_ROOTS: SourceRoots = {
  help: ['/usr/share/help', '/usr/local/share/help'],
  man: ['/usr/share/man', '/usr/local/share/man'],
  applications: ['/Applications', '/System/Applications'],
};

/** The user's languages in order of preference, each also without its region, then C (Linux help's untranslated pages). */
export function languages(env: Record<string, string | undefined>): string[] {
  const raw = [env['LANGUAGE'], env['LC_ALL'], env['LC_MESSAGES'], env['LANG']].find((value) => value !== undefined && value !== '') ?? '';
  const out: string[] = [];
  for (const entry of raw.split(':')) {
    const tag = entry.replace(/[.@].*$/, '');
    if (tag === '' || tag === 'C' || tag === 'POSIX') continue;
    out.push(tag, tag.split(/[_-]/)[0] as string);
  }
  return [...new Set([...out, 'C'])];
}

/** Names an app's help may be filed under: its binary, its desktop id, its name in lower case with dashes. */
export function helpNames(app: { name: string; executable?: string; desktopId?: string }): string[] {
  const names = [
    app.executable && path.basename(app.executable),
    app.desktopId?.replace(/\.desktop$/, ''),
    app.desktopId
      ?.replace(/\.desktop$/, '')
      .split('.')
      .at(-1),
    app.name,
    app.name.toLowerCase().replace(/\s+/g, '-'),
  ];
  // An app names itself, so its name may try to climb out of the help folders: such names are dropped.
  return [...new Set(names.filter((name): name is string => name !== undefined && isHelpName(name)))];
}

/**
 * Every file under a folder the index reads, hidden folders and dependency trees left out;
 * bounded so a home folder cannot run away, and `cut` says when the bound was reached. Links are
 * not followed (a Dirent for a link is neither file nor folder), so the walk stays in the folder.
 */
export function walkFolder(dir: string, limit = WALK_LIMIT): { files: string[]; cut: boolean } {
  const files: string[] = [];
  let cut = false;
  const visit = (folder: string, depth: number): void => {
    if (depth > 12 || cut) return;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(full, depth + 1);
      else if (entry.isFile() && formatOf(full) !== undefined) {
        if (files.length >= limit) {
          cut = true;
          return;
        }
        files.push(full);
      }
      if (cut) return;
    }
  };
  visit(path.resolve(dir), 0);
  return { files, cut };
}

function walkedSource(kind: SourceKind, key: string, dir: string, keep: (file: string) => boolean = () => true, limit = WALK_LIMIT): Source {
  const { files, cut } = walkFolder(dir, limit);
  return { kind, key, files: files.filter(keep), roots: [dir], ...(cut ? { cut: files.length } : {}) };
}

/** A Linux app's own help: the first of the user's languages it ships, then C. */
export function linuxHelp(names: string[], langs: string[], roots: string[]): Source[] {
  for (const name of names.filter(isHelpName))
    for (const lang of langs.filter(isHelpName))
      for (const root of roots) {
        const dir = path.resolve(root, lang, name);
        if (existsSync(dir) && staysWithin(root, dir)) return [walkedSource('app-help', `app-help:${name}`, dir)];
      }
  return [];
}

/** An app's man pages, in the user's language where translated, in every section. */
export function manPages(names: string[], langs: string[], roots: string[]): Source[] {
  const sources: Source[] = [];
  for (const name of names.filter(isHelpName)) {
    const files: string[] = [];
    const found: string[] = [];
    for (const root of roots)
      for (const lang of [...langs.filter((entry) => entry !== 'C' && isHelpName(entry)), '']) {
        const base = path.join(root, lang);
        if (!existsSync(base)) continue;
        const before = files.length;
        for (const section of readdirSync(base).filter((entry) => /^man[1-9]/.test(entry))) {
          const dir = path.join(base, section);
          for (const file of readdirSync(dir)) {
            const full = path.join(dir, file);
            // A page linked from outside the man folders (an alternatives link gone astray) is not read.
            if (file.startsWith(`${name}.`) && formatOf(full) === 'man' && staysWithin(root, full)) files.push(full);
          }
        }
        if (files.length > before) {
          found.push(root);
          break;
        }
      }
    if (files.length > 0) sources.push({ kind: 'man', key: `man:${name}`, files, roots: found });
  }
  return sources.slice(0, 1);
}

/**
 * A macOS app's Help Book: Info.plist's CFBundleHelpBookFolder, under the first of the user's
 * languages' .lproj (then English, then Base), else any *.help folder in Resources.
 */
export function macHelpBook(bundle: string, langs: string[]): Source[] {
  const resources = path.join(bundle, 'Contents', 'Resources');
  if (!existsSync(resources)) return [];
  const folder = helpBookFolder(path.join(bundle, 'Contents', 'Info.plist'));
  const lprojs = [...langs.filter((lang) => lang !== 'C'), 'en', 'English', 'Base'].map((lang) => `${lang.replace('_', '-')}.lproj`);
  const candidates = folder === undefined ? [] : [...lprojs.map((lproj) => path.join(resources, lproj, folder)), path.join(resources, folder)];
  for (const lproj of lprojs) {
    const dir = path.join(resources, lproj);
    if (existsSync(dir))
      candidates.push(
        ...readdirSync(dir)
          .filter((entry) => entry.endsWith('.help'))
          .map((entry) => path.join(dir, entry)),
      );
  }
  candidates.push(
    ...readdirSync(resources)
      .filter((entry) => entry.endsWith('.help'))
      .map((entry) => path.join(resources, entry)),
  );
  const found = candidates.find((dir) => existsSync(dir) && statSync(dir).isDirectory() && staysWithin(bundle, dir));
  if (found === undefined) return [];
  return [walkedSource('app-help', `app-help:${path.basename(bundle)}`, found, (file) => /\.html?$/i.test(file))];
}

/** CFBundleHelpBookFolder from an XML Info.plist; binary plists fall back to the *.help search. */
function helpBookFolder(plist: string): string | undefined {
  try {
    const text = readFileSync(plist, 'utf8');
    return /<key>CFBundleHelpBookFolder<\/key>\s*<string>([^<]+)<\/string>/.exec(text)?.[1]?.trim();
  } catch {
    return undefined;
  }
}

/** The bundle of an app named on the command line, on macOS. */
export function findBundle(name: string, roots: string[]): string | undefined {
  if (!isHelpName(name)) return undefined;
  for (const root of roots) {
    const bundle = path.join(root, name.endsWith('.app') ? name : `${name}.app`);
    if (existsSync(bundle) && staysWithin(root, bundle)) return bundle;
  }
  return undefined;
}

/** What an app is known by for its help; the platform says (Platform.appIdentity, namedIdentity). */
export type { AppIdentity };

/** Everything an app brings of its own: help pages (Linux or macOS) and man pages. */
export function appSources(app: AppIdentity, env: Record<string, string | undefined>, roots: SourceRoots = SYSTEM_ROOTS): Source[] {
  const langs = languages(env);
  const names = helpNames(app);
  const bundle = app.bundle ?? (app.helpFormat === 'help-book' ? findBundle(app.name, roots.applications) : undefined);
  const help = bundle === undefined ? linuxHelp(names, langs, roots.help) : macHelpBook(bundle, langs);
  return [...help, ...manPages(names, langs, roots.man)];
}

export function folderSource(dir: string, options: { limit?: number } = {}): Source {
  const resolved = path.resolve(dir);
  return walkedSource('folder', `folder:${resolved}`, resolved, undefined, options.limit);
}

/** Where appSources looked for an app's help, in words, for a search that found none. */
export function whereLooked(app: AppIdentity, env: Record<string, string | undefined>, roots: SourceRoots = SYSTEM_ROOTS): string {
  const names = helpNames(app);
  const langs = languages(env).filter(isHelpName);
  const list = (items: string[]): string => (items.length === 1 ? (items[0] as string) : `{${items.join(',')}}`);
  if (names.length === 0) return `nowhere: '${app.name}' is not a name help is filed under`;
  const onMac = app.bundle !== undefined || app.helpFormat === 'help-book';
  const help = onMac
    ? `${app.bundle ?? roots.applications.map((root) => path.join(root, `${app.name}.app`)).join(' or ')} (its Help Book)`
    : roots.help.map((root) => path.join(root, list(langs), list(names))).join(' and ');
  const man = roots.man.map((root) => path.join(root, 'man*', `${list(names)}.*`)).join(' and ');
  return `${help}, and man pages ${man}`;
}
