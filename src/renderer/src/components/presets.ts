import type { TFunction } from 'i18next';
import { PRESET_INFO, type PresetName } from '../../../shared/settings';

/** The preset's name for people, saying where a local server runs. Product names stay as they are. */
export function presetLabel(preset: PresetName, t: TFunction): string {
  const { label, local } = PRESET_INFO[preset];
  return local ? t('presets.local', { name: label }) : label;
}
