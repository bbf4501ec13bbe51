import { createPlatform } from '../platform/factory';
import type { Platform } from '../platform/types';
import { ocrLanguages, withVision } from '../vision';

export interface PlatformOptions {
  /** Deskpilot's own processes: never listed or frontmost (macOS), never shown in a capture. */
  hidePids?: () => readonly number[];
}

/**
 * The platform every program runs on: this OS's backend, with screen text (window capture and
 * OCR) composed on top where the backend can capture windows. The one place the host, the CLI
 * and the MCP server get their platform, so none of them forgets a capability.
 */
export async function assemblePlatform(
  os: string = process.platform,
  env: Record<string, string | undefined> = process.env,
  options: PlatformOptions = {},
): Promise<Platform> {
  return withVision(await createPlatform(os, env, options), { ...options, languages: ocrLanguages(env) });
}
