import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * A name an app's help or man pages may be filed under: one path segment that climbs nowhere.
 * App names come from the apps themselves and from the model, so `../../home/ada` is expected.
 */
export function isHelpName(name: string): boolean {
  return name.trim() !== '' && name.length <= 200 && !/[/\\\0]/.test(name) && !name.includes('..') && name !== '.';
}

/** True when `file` is `root` or below it, both already resolved. */
export function isWithin(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** The real path of a file or folder (links followed), or undefined when it does not exist. */
export function realPath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/**
 * True when `file` stays under `root` both as written (after path.resolve) and after its links
 * are followed: a link inside a docs folder that points at ~/.ssh is not documentation.
 */
export function staysWithin(root: string, file: string): boolean {
  const resolvedRoot = path.resolve(root);
  const resolved = path.resolve(resolvedRoot, file);
  if (!isWithin(resolvedRoot, resolved)) return false;
  const realRoot = realPath(resolvedRoot);
  const real = realPath(resolved);
  return realRoot !== undefined && real !== undefined && isWithin(realRoot, real);
}
