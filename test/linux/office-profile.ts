/**
 * A LibreOffice user profile that starts as a returning user's does. On a profile that names no
 * version it last ran, LibreOffice copies its user installation (Basic libraries, the
 * bibliography database, galleries) and runs its graphics render tests at start: about 1.2 of
 * the 4.3 CPU-seconds a Writer or Calc launch costs (bench/launch-cpu.ts), none of it read by any
 * test. The registry written here holds the settings such a start records (the installed version
 * and build, the finished install, no first run), so the first launch skips that work. (Its
 * restart on a new profile, a short soffice.bin of about 0.5 CPU-s, still happens.)
 *   seedOfficeProfile(path.join(home, 'libreoffice'))   then -env:UserInstallation=file://<that folder>
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PROGRAM = '/usr/lib/libreoffice/program';
const REGISTRY = '/usr/lib/libreoffice/share/registry/main.xcd';

/** The installed version ("7.4") and build ("40(Build:2)"), or undefined when either cannot be read. */
function installed(): { version: string; build: string } | undefined {
  try {
    const version = /name="ooSetupVersion">\s*<value>([0-9.]{1,16})<\/value>/.exec(readFileSync(REGISTRY, 'utf8'))?.[1];
    const build = /^buildid=(.{1,64})$/m.exec(readFileSync(path.join(PROGRAM, 'versionrc'), 'utf8'))?.[1];
    return version !== undefined && build !== undefined ? { version, build } : undefined;
  } catch {
    return undefined;
  }
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const item = (node: string, name: string, value: string): string =>
  `<item oor:path="/org.openoffice.${node}"><prop oor:name="${name}" oor:op="fuse"><value>${escape(value)}</value></prop></item>`;

export function officeRegistry(version: string, build: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    item('Office.Common/Misc', 'FirstRun', 'false'),
    item('Setup/Office', 'ooSetupInstCompleted', 'true'),
    item('Setup/Office', 'LastCompatibilityCheckID', build),
    item('Setup/Product', 'ooSetupLastVersion', version),
    '</oor:items>',
    '',
  ].join('\n');
}

/**
 * Writes the settings into `profile` (the UserInstallation folder) unless it already holds a
 * registry (Writer and Calc share one profile in a run). Where the installed version cannot be
 * read, it writes nothing and LibreOffice makes its profile from scratch, as before.
 */
export function seedOfficeProfile(profile: string): void {
  const file = path.join(profile, 'user', 'registrymodifications.xcu');
  if (existsSync(file)) return;
  const found = installed();
  if (found === undefined) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, officeRegistry(found.version, found.build));
}
