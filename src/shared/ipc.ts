import type { SerializedError } from './errors';

/**
 * The typed IPC contract between renderer and main. Channels are `domain:action`.
 * This file carries no runtime dependency, because the sandboxed preload imports it;
 * the payload schemas main validates against live in ipc-schemas.ts.
 */
export const CHANNELS = {
  appInfo: 'app:info',
} as const;

export type IpcChannel = (typeof CHANNELS)[keyof typeof CHANNELS];

export interface AppInfoReply {
  name: string;
  version: string;
  platform: string;
}

/** Every reply crosses IPC as data: Electron reduces a thrown error to its message. */
export type IpcReply<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/** What the preload exposes as `window.deskpilot`. */
export interface DeskpilotApi {
  appInfo(): Promise<AppInfoReply>;
}
