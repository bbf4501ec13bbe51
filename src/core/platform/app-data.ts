import path from 'node:path';

/** An environment variable, with an empty value counted as unset (as shells leave them). */
export function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The freedesktop place for app data: Linux's, and the fallback of an OS with no convention of its own. */
export function freedesktopDataDir(env: Record<string, string | undefined>, home: string): string {
  return path.join(envValue(env, 'XDG_DATA_HOME') ?? path.join(home, '.local', 'share'), 'deskpilot');
}
