import type { DoctorCheck, DoctorCheckId } from '../../shared/ipc';

/** What each check is called on the command line (the window names them from its catalogs). */
export const CHECK_LABELS: Readonly<Record<DoctorCheckId, string>> = {
  display: 'X display',
  'a11y-bus': 'accessibility bus',
  'a11y-enabled': 'accessibility on',
  registry: 'AT-SPI registry',
  apps: 'apps with a tree',
  chromium: 'Chromium/Electron',
  'window-manager': 'window manager',
  input: 'input (XTest)',
  'mac-accessibility': 'Accessibility',
  'mac-input-monitoring': 'Input Monitoring',
  'mac-screen-recording': 'Screen Recording',
  keyring: 'keyring',
  provider: 'provider',
  'provider-reachable': 'provider reachable',
  'provider-key': 'API key accepted',
  'provider-model': 'model exists',
  'provider-tools': 'tool calling',
  'docs-index': 'docs index',
};

const MARKS: Readonly<Record<DoctorCheck['status'], string>> = { ok: '✓', fail: '✗', skip: '–' };
const WIDTH = Math.max(...Object.values(CHECK_LABELS).map((label) => label.length)) + 2;

/** One line a check: the mark, the label, the figure, and for a failure the fix. */
export function checkLine(check: DoctorCheck): string {
  const fix = check.status === 'fail' && check.fix !== undefined ? `; fix: ${check.fix}` : '';
  return `${MARKS[check.status]} ${CHECK_LABELS[check.id].padEnd(WIDTH)}${check.figure}${fix}`.replace(/\s+$/, '');
}
