import type { TFunction } from 'i18next';
import type { DoctorCheck, DoctorReport } from '../../../shared/ipc';

/** A failed check's advice in the window's language; the core's English when the catalog has no words for it. */
export function fixText(check: DoctorCheck, t: TFunction): string {
  if (check.fixKey === undefined) return check.fix ?? '';
  return t(`doctor.fix.${check.fixKey}`, { ...check.fixValues, defaultValue: check.fix ?? '' });
}

/** The report's one-line verdict. */
export function verdict(report: DoctorReport, t: TFunction): string {
  const failed = report.checks.filter((check) => check.status === 'fail').length;
  return failed === 0 ? t('doctor.allGood') : t('doctor.someFailed', { count: failed });
}
