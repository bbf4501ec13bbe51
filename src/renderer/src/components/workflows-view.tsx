import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalDecision } from '../../../shared/settings';
import type { WorkflowListReply, WorkflowSummary } from '../../../shared/workflow-ipc';
import { describeFailure } from '../failure';
import { isRunActive, type WorkflowRunAction, type WorkflowRunState } from '../hooks/workflow-run-state';
import { SaveWorkflow } from './save-workflow';
import { WorkflowForm } from './workflow-form';
import { WorkflowRunView } from './workflow-run-view';

interface Props {
  /** "Save as workflow" was pressed for this ask: the view opens on saving it. */
  saveAskId: string | undefined;
  onSaveDone(): void;
  /** The run, followed by the window (use-workflow-run.ts) so it survives leaving this view. */
  run: WorkflowRunState;
  dispatch(action: WorkflowRunAction): void;
}

/** The Workflows view: the saved workflows, one's parameters and Run, its progress and report; and saving a task as one. */
export function WorkflowsView({ saveAskId, onSaveDone, run, dispatch }: Props) {
  const { t } = useTranslation();
  const [listing, setListing] = useState<WorkflowListReply | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [selected, setSelected] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  const load = useCallback(() => {
    window.deskpilot.listWorkflows().then(
      (reply) => {
        setListing(reply);
        setError(undefined);
      },
      (failure: unknown) => setError(t('workflows.couldNotLoad', { error: describeFailure(failure, t).text })),
    );
  }, [t]);

  useEffect(load, [load]);

  const runWorkflow = async (name: string, vars: Record<string, string>, options: { dryRun: boolean; trusted: boolean }): Promise<boolean> => {
    setNotice(undefined);
    try {
      await window.deskpilot.runWorkflow({ name, vars, dryRun: options.dryRun, trusted: options.trusted });
      return true;
    } catch (failure) {
      setNotice(t('workflows.couldNotRun', { error: describeFailure(failure, t).text }));
      return false;
    }
  };
  const stop = () => void window.deskpilot.stopWorkflow().catch((failure: unknown) => console.warn('could not stop', failure));
  // The agent's approval path: the same approve() call, answered in the host's one approvals map.
  const answer = async (id: string, decision: ApprovalDecision): Promise<boolean> => {
    try {
      await window.deskpilot.approve({ id, decision });
      dispatch({ type: 'answered', id, decision });
      return true;
    } catch {
      return false;
    }
  };
  const saved = (summary: WorkflowSummary) => {
    setNotice(t('workflows.save.saved', { name: summary.name }));
    setSelected(summary.name);
    onSaveDone();
    load();
  };

  const chosen = listing?.workflows.find((workflow) => workflow.name === selected);
  return (
    <section className="view workflows-view" aria-labelledby="workflows-heading">
      <h2 id="workflows-heading">{t('workflows.title')}</h2>
      {saveAskId === undefined ? null : <SaveWorkflow askId={saveAskId} onSaved={saved} onCancel={onSaveDone} />}
      <p className="muted">{t('workflows.intro')}</p>
      {notice === undefined ? null : (
        <p role="status" className="form-status">
          {notice}
        </p>
      )}
      {error === undefined ? null : (
        <div role="alert" className="form-error">
          {error}
        </div>
      )}
      {listing === undefined ? null : (
        <>
          {listing.workflows.length === 0 ? (
            <p className="muted">{t('workflows.empty')}</p>
          ) : (
            <ul className="workflow-list" aria-label={t('workflows.list')}>
              {listing.workflows.map((workflow) => (
                <li key={workflow.name}>
                  <button type="button" aria-pressed={workflow.name === selected} onClick={() => setSelected(workflow.name)}>
                    <strong>{workflow.title.slice(0, 120)}</strong>
                    <span className="muted">
                      {' '}
                      {t('workflows.steps', { count: workflow.steps })}
                      {workflow.app === undefined ? '' : ` · ${t('workflows.forApp', { app: workflow.app.slice(0, 80) })}`}
                      {workflow.risky ? ` · ${t('workflows.risky')}` : ''}
                    </span>
                  </button>
                  {workflow.description === undefined ? null : <p className="muted">{workflow.description.slice(0, 300)}</p>}
                </li>
              ))}
            </ul>
          )}
          <p className="field-note">{t('workflows.folder', { folder: listing.folder })}</p>
          {listing.skipped.slice(0, 10).map((skip) => (
            <p key={skip.file} className="field-note">
              {t('workflows.skipped', { file: skip.file.slice(0, 80), reason: skip.reason.slice(0, 200) })}
            </p>
          ))}
        </>
      )}
      {chosen === undefined ? null : (
        <WorkflowForm
          key={chosen.name}
          workflow={chosen}
          running={isRunActive(run)}
          onRun={(vars, options) => runWorkflow(chosen.name, vars, options)}
          onStop={stop}
        />
      )}
      <WorkflowRunView run={run} onAnswer={answer} />
    </section>
  );
}
