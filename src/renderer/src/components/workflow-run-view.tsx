import { useTranslation } from 'react-i18next';
import type { ApprovalDecision } from '../../../shared/settings';
import type { WorkflowHaltInfo } from '../../../shared/workflow-ipc';
import { isRunActive, type WorkflowRunState } from '../hooks/workflow-run-state';
import { ApprovalCard } from './approval-card';

interface Props {
  run: WorkflowRunState;
  onAnswer(id: string, decision: ApprovalDecision): Promise<boolean>;
}

/** App text is shown as text (React escapes it) and cut, like every string that came from an app. */
function clip(text: string, chars = 200): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

const HALT_CODES = [
  'not_found',
  'ambiguous',
  'disabled',
  'action_failed',
  'effect_missing',
  'refused',
  'denied',
  'approval_needed',
  'app_exited',
  'window_missing',
] as const;
type HaltCode = (typeof HALT_CODES)[number];

function isHaltCode(code: string): code is HaltCode {
  return (HALT_CODES as readonly string[]).includes(code);
}

function HaltReport({ halt }: { halt: WorkflowHaltInfo }) {
  const { t } = useTranslation();
  return (
    <section className="workflow-halt" aria-labelledby="workflow-halt-title">
      <h4 id="workflow-halt-title">{t('workflows.halt.title')}</h4>
      <p>
        <strong>{t('workflows.halt.step', { step: halt.step, action: halt.action })}</strong>
        {halt.intent === undefined ? null : ` — ${clip(halt.intent)}`}
      </p>
      <p>{isHaltCode(halt.code) ? t(`workflows.halt.code.${halt.code}`) : halt.code}</p>
      <p className="muted">{clip(halt.message, 400)}</p>
      {halt.lookedFor === undefined ? null : (
        <p>
          {t('workflows.halt.lookedFor')}: <code>{clip(halt.lookedFor)}</code>
        </p>
      )}
      <h5>{t('workflows.halt.candidates')}</h5>
      {halt.candidates.length === 0 ? (
        <p className="muted">{t('workflows.halt.noCandidates')}</p>
      ) : (
        <ul className="workflow-candidates">
          {halt.candidates.slice(0, 20).map((candidate) => (
            <li key={candidate.id}>{t('workflows.halt.refused', { role: candidate.role, name: clip(candidate.name, 80), reason: clip(candidate.reason) })}</li>
          ))}
        </ul>
      )}
      {halt.screenshot === undefined ? null : (
        <p>
          {t('workflows.halt.screenshot')}: <code>{clip(halt.screenshot, 300)}</code>
        </p>
      )}
    </section>
  );
}

/** A run as it goes: each step's outcome, the risky steps waiting for an answer, then the outcome and the halt report. */
export function WorkflowRunView({ run, onAnswer }: Props) {
  const { t } = useTranslation();
  if (run.runId === undefined) return null;
  const active = isRunActive(run);
  const { report } = run;
  return (
    <section className="workflow-run" aria-labelledby="workflow-run-title">
      <h4 id="workflow-run-title">{t('workflows.progress')}</h4>
      <p role="status" className={!active && (run.error !== undefined || report?.status === 'halted') ? 'form-error' : 'form-status'}>
        {active
          ? t(run.dryRun ? 'workflows.planning' : 'workflows.running', { name: run.name })
          : run.stopped
            ? t('workflows.stoppedRun')
            : run.error !== undefined
              ? t('workflows.failed', { error: clip(run.error.message, 300) })
              : report?.status === 'halted'
                ? t('workflows.halted', { step: report.halt?.step ?? '?' })
                : report?.status === 'planned'
                  ? t('workflows.planned')
                  : t('workflows.completed', { ms: report?.ms ?? 0 })}
      </p>
      <ol className="workflow-steps">
        {run.steps.map((step) => (
          <li key={step.step} className={`workflow-step ${step.status}`}>
            <span className="workflow-step-status">{t(`workflows.stepStatus.${step.status}`)}</span> {step.action}
            {step.target === undefined ? null : <> {clip(step.target)}</>}
            {step.rung === undefined ? null : <span className="muted"> · {t(`workflows.rung.${step.rung}`)}</span>}
            {step.ms === undefined ? null : <span className="muted"> · {t('workflows.stepMs', { ms: step.ms })}</span>}
            {step.note === undefined ? null : <span className="muted"> · {clip(step.note)}</span>}
          </li>
        ))}
      </ol>
      {run.approvals.map((entry) => (
        <ApprovalCard key={entry.id} entry={entry} onAnswer={onAnswer} />
      ))}
      {report?.halt === undefined ? null : <HaltReport halt={report.halt} />}
    </section>
  );
}
