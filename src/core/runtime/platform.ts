import { createPlatform } from '../platform/factory';
import type { Platform } from '../platform/types';
import { ocrLanguages, withVision } from '../screen-text';

export interface PlatformOptions {
  /** Deskpilot's own processes: never listed or frontmost (macOS), never shown in a capture. */
  hidePids?: () => readonly number[];
}

/**
 * The capabilities the runtime composes over a backend: screen text (window capture and OCR)
 * where the backend can capture windows. Each reads every member it does not change through to
 * the backend, so a Platform member added later is never dropped here.
 */
export function withCapabilities(platform: Platform, env: Record<string, string | undefined>, options: PlatformOptions = {}): Platform {
  return withVision(platform, { ...options, languages: ocrLanguages(env) });
}

/**
 * The platform every program runs on: this OS's backend, with the runtime's capabilities
 * composed on top. The one place the host, the CLI and the MCP server get their platform, so
 * none of them forgets a capability.
 */
export async function assemblePlatform(
  os: string = process.platform,
  env: Record<string, string | undefined> = process.env,
  options: PlatformOptions = {},
): Promise<Platform> {
  return withCapabilities(await createPlatform(os, env, options), env, options);
}
