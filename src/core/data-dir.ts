import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Where Deskpilot keeps data outside Electron (the CLI, the MCP server): DESKPILOT_DATA_DIR,
 * else the platform's place for app data. The app passes its own userData folder instead.
 */
export function dataDir(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string {
  const set = (name: string): string | undefined => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const explicit = set('DESKPILOT_DATA_DIR');
  if (explicit !== undefined) return explicit;
  const home = set('HOME') ?? homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Deskpilot');
  if (platform === 'win32') return path.join(set('APPDATA') ?? path.join(home, 'AppData', 'Roaming'), 'Deskpilot');
  return path.join(set('XDG_DATA_HOME') ?? path.join(home, '.local', 'share'), 'deskpilot');
}
