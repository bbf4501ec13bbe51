import { PRESET_INFO, type PresetName } from '../../../shared/settings';

/** The preset's name for people, saying where a local server runs. */
export function presetLabel(preset: PresetName): string {
  const { label, local } = PRESET_INFO[preset];
  return local ? `${label} (on this computer)` : label;
}
