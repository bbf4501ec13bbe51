import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../shared/i18n/i18n';
import { DOCTOR_CHECK_IDS, type DoctorCheck } from '../../../shared/ipc';
import { UNAVAILABLE_REASONS } from '../../../shared/errors';
import { fixText, verdict } from './diagnose-text';

const EN = createI18n('en');
const PT = createI18n('pt-BR');

/** Every fixKey the core gives (src/core/doctor, src/core/platform/linux/desktop-checks.ts and the UI_NOT_AVAILABLE reasons). */
const FIX_KEYS: readonly string[] = [
  ...UNAVAILABLE_REASONS,
  'no-apps',
  'chromium',
  'no-wm',
  'no-xtest',
  'no-keyring',
  'provider-config',
  'provider-unreachable',
  'provider-key',
  'provider-model',
  'provider-tools',
  'mac-accessibility',
];

describe('the Diagnose panel’s words', () => {
  it('names every check and every fix in both languages', () => {
    for (const { t } of [EN, PT]) {
      for (const id of DOCTOR_CHECK_IDS) expect(t(`doctor.check.${id}`), id).not.toMatch(/^doctor\./);
      for (const key of FIX_KEYS) expect(t(`doctor.fix.${key}`, { apps: 'code', server: 'http://x', defaultValue: '' }), key).not.toBe('');
      for (const reason of UNAVAILABLE_REASONS) expect(t(`errorDetail.unavailable.${reason}`), reason).not.toMatch(/^errorDetail\./);
    }
  });

  it('says a fix in the window’s language, with its values, and falls back to the core’s English', () => {
    const chromium: DoctorCheck = {
      id: 'chromium',
      status: 'fail',
      figure: 'code (pid 4) without …',
      fix: 'start them again …',
      fixKey: 'chromium',
      fixValues: { apps: 'code (pid 4)' },
    };
    expect(fixText(chromium, PT.t)).toBe('Abra code (pid 4) de novo com --force-renderer-accessibility, para que o conteúdo possa ser lido.');
    expect(fixText({ ...chromium, fixKey: 'something-new' }, EN.t)).toBe('start them again …');
    expect(fixText({ ...chromium, fixKey: undefined }, EN.t)).toBe('start them again …');
  });

  it('counts the problems', () => {
    const ok: DoctorCheck = { id: 'display', status: 'ok', figure: 'DISPLAY=:0 answers' };
    const bad: DoctorCheck = { id: 'registry', status: 'fail', figure: 'gone' };
    expect(verdict({ ok: true, checks: [ok] }, EN.t)).toBe('Everything Deskpilot needs works.');
    expect(verdict({ ok: false, checks: [ok, bad, bad] }, PT.t)).toBe('2 problemas encontrados.');
  });
});
