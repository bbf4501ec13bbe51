import type { Schema } from 'electron-store';
import { STORE_JSON_SCHEMA, storedDefaults, type StoredValues } from '../../shared/settings-derive';

export interface WindowBounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Everything main persists about the user's choices: the settings (settings-schema.ts), each
 * secret only ever encrypted, plus what main keeps for itself.
 */
export type StoredSettings = StoredValues & {
  /**
   * Extra headers in clear, as earlier versions stored them: read until they can be moved
   * into headersEncrypted, and '' from then on. Nothing writes a value here any more.
   */
  headers: string;
  /** Absent until the user moved or resized the window. */
  windowBounds?: WindowBounds;
};

export const SETTINGS_DEFAULTS: Omit<StoredSettings, 'windowBounds'> = { ...storedDefaults(process.platform), headers: '' };

const integer = { type: 'integer' } as const;

export const SETTINGS_SCHEMA: Schema<StoredSettings> = {
  ...(STORE_JSON_SCHEMA as Schema<StoredValues>),
  headers: { type: 'string', maxLength: 4000 },
  windowBounds: {
    type: 'object',
    properties: { x: integer, y: integer, width: { type: 'integer', minimum: 1 }, height: { type: 'integer', minimum: 1 } },
    required: ['x', 'y', 'width', 'height'],
  },
};

/** What SettingsService needs from electron-store; ElectronStore<StoredSettings> fits it. */
export interface SettingsStore {
  get<Key extends keyof StoredSettings>(key: Key): StoredSettings[Key];
  set<Key extends keyof StoredSettings>(key: Key, value: StoredSettings[Key]): void;
  /** Several keys at once: electron-store checks the schema for the whole result, then writes once or not at all. */
  set(values: Partial<StoredSettings>): void;
}
