/**
 * The two files main keeps in the app's userData folder (`cwd` overrides it in tests). Kept
 * apart from the logic that uses them because electron-store needs Electron's app paths.
 */
import ElectronStore from 'electron-store';
import type { ChatEntry } from '../../shared/transcript';
import { SETTINGS_DEFAULTS, SETTINGS_SCHEMA, type StoredSettings } from './settings-store';

/**
 * `settings.json` in the app's userData folder (`cwd` overrides it in tests). A file that
 * fails the schema, hand-edited or from a future version, is reset rather than crashing start-up.
 */
export function createSettingsStore(cwd?: string): ElectronStore<StoredSettings> {
  return new ElectronStore<StoredSettings>({
    name: 'settings',
    defaults: SETTINGS_DEFAULTS,
    schema: SETTINGS_SCHEMA,
    clearInvalidConfig: true,
    ...(cwd === undefined ? {} : { cwd }),
  });
}

/** `history.json` beside settings.json: a separate file, so a large chat never slows settings reads. */
export function createHistoryStore(cwd?: string): ElectronStore<{ entries: ChatEntry[] }> {
  return new ElectronStore<{ entries: ChatEntry[] }>({
    name: 'history',
    defaults: { entries: [] },
    clearInvalidConfig: true,
    ...(cwd === undefined ? {} : { cwd }),
  });
}
