import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DoctorCheck, DoctorReport } from '../../../shared/ipc';
import { describeFailure, type Failure } from '../failure';
import { fixText, verdict } from './diagnose-text';
import { FailureText } from './failure-text';

const MARKS: Readonly<Record<DoctorCheck['status'], string>> = { ok: '✓', fail: '✗', skip: '–' };

/**
 * The checks of `deskpilot doctor`, one line each: the part, what was measured and, when it
 * failed, how to fix it. Shown in Settings and on the permission screen.
 */
export function Diagnose() {
  const { t } = useTranslation();
  const [report, setReport] = useState<DoctorReport | undefined>();
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<Failure | undefined>();
  const run = (online: boolean) => {
    setRunning(true);
    setProblem(undefined);
    window.deskpilot
      .doctor({ online })
      .then(setReport, (reason: unknown) => setProblem(describeFailure(reason, t)))
      .finally(() => setRunning(false));
  };
  return (
    <section className="diagnose" aria-labelledby="diagnose-heading">
      <h3 id="diagnose-heading" className="settings-section">
        {t('doctor.heading')}
      </h3>
      <p className="muted">{t('doctor.intro')}</p>
      <div className="form-buttons">
        <button type="button" onClick={() => run(false)} disabled={running}>
          {running ? t('doctor.running') : t('doctor.run')}
        </button>
        <button type="button" onClick={() => run(true)} disabled={running} title={t('doctor.onlineHint')}>
          {t('doctor.runOnline')}
        </button>
      </div>
      {problem === undefined ? null : (
        <div role="alert" className="form-error">
          <FailureText failure={problem} />
        </div>
      )}
      {report === undefined ? null : (
        <div role="status">
          <p className={report.ok ? 'diagnose-verdict' : 'diagnose-verdict failed'}>{verdict(report, t)}</p>
          <ul className="diagnose-list">
            {report.checks.map((check) => (
              <li key={check.id} className={`diagnose-check ${check.status}`}>
                <span className="diagnose-mark" role="img" aria-label={t(`doctor.status.${check.status}`)}>
                  {MARKS[check.status]}
                </span>
                <span className="diagnose-name">{t(`doctor.check.${check.id}`)}</span>
                <code className="diagnose-figure">{check.figure}</code>
                {check.status === 'fail' ? <span className="diagnose-fix">{fixText(check, t)}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
