import { homedir } from 'node:os';
import { envValue } from './app-data';
import { platformTraits } from './traits';

/**
 * Where Deskpilot keeps data outside Electron (the CLI, the MCP server): DESKPILOT_DATA_DIR,
 * else the OS's place for app data (its traits' appDataDir). The app passes its own userData
 * folder instead.
 */
export function dataDir(env: Record<string, string | undefined>, os: string = process.platform): string {
  const explicit = envValue(env, 'DESKPILOT_DATA_DIR');
  if (explicit !== undefined) return explicit;
  return platformTraits(os).appDataDir(env, envValue(env, 'HOME') ?? homedir());
}
