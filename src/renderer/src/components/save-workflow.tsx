import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WORKFLOW_FILE_NAME } from '../../../shared/workflow-ipc-schemas';
import type { WorkflowDraft, WorkflowSummary } from '../../../shared/workflow-ipc';
import { describeFailure } from '../failure';

interface Props {
  askId: string;
  onSaved(saved: WorkflowSummary): void;
  onCancel(): void;
}

/**
 * "Save as workflow" for a completed task: the host proposes the steps and, as parameters, the
 * values the question held; the user names it and picks which values each run asks for.
 */
export function SaveWorkflow({ askId, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<WorkflowDraft | undefined>();
  const [name, setName] = useState('');
  const [kept, setKept] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | undefined>();
  const [nameError, setNameError] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    window.deskpilot.draftWorkflow({ askId }).then(
      (proposed) => {
        if (!current) return;
        setDraft(proposed);
        setName(proposed.name);
        setKept(new Set(proposed.parameters.filter((parameter) => !parameter.secret).map((parameter) => parameter.name)));
      },
      (failure: unknown) => current && setError(t('workflows.save.couldNotDraft', { error: describeFailure(failure, t).text })),
    );
    return () => {
      current = false;
    };
  }, [askId, t]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const valid = WORKFLOW_FILE_NAME.test(name);
    setNameError(!valid);
    if (!valid || draft === undefined) return;
    setSaving(true);
    setError(undefined);
    window.deskpilot.saveWorkflow({ askId, name, parameters: [...kept] }).then(onSaved, (failure: unknown) => {
      setSaving(false);
      setError(t('workflows.save.couldNotSave', { error: describeFailure(failure, t).text }));
    });
  };

  const toggle = (parameter: string, on: boolean) =>
    setKept((current) => {
      const next = new Set(current);
      if (on) next.add(parameter);
      else next.delete(parameter);
      return next;
    });

  return (
    <section className="save-workflow" aria-labelledby="save-workflow-title">
      <h3 id="save-workflow-title">{t('workflows.save.title')}</h3>
      <p className="muted">{t('workflows.save.intro')}</p>
      {error === undefined ? null : (
        <div role="alert" className="form-error">
          {error}
        </div>
      )}
      {draft === undefined ? null : (
        <form onSubmit={submit}>
          <div className="field">
            <label htmlFor="save-workflow-name">{t('workflows.save.name')}</label>
            <input
              id="save-workflow-name"
              value={name}
              maxLength={48}
              spellCheck={false}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? 'save-workflow-name-note save-workflow-name-error' : 'save-workflow-name-note'}
              onChange={(event) => setName(event.target.value)}
            />
            {nameError ? (
              <p className="field-error" id="save-workflow-name-error" role="alert">
                {t('workflows.save.nameInvalid')}
              </p>
            ) : null}
            <p className="field-note" id="save-workflow-name-note">
              {t('workflows.save.nameHint')}
            </p>
          </div>
          <h4>{t('workflows.save.steps')}</h4>
          <ol className="workflow-steps">
            {draft.steps.slice(0, 100).map((step, index) => (
              <li key={index}>{step.slice(0, 200)}</li>
            ))}
          </ol>
          {draft.parameters.length === 0 ? null : <h4>{t('workflows.parameters')}</h4>}
          {draft.parameters.map((parameter) =>
            parameter.secret ? (
              <p key={parameter.name} className="field-note">
                {t('workflows.save.secret', { name: parameter.name })}
              </p>
            ) : (
              <div className="field checkbox-field" key={parameter.name}>
                <label>
                  <input type="checkbox" checked={kept.has(parameter.name)} onChange={(event) => toggle(parameter.name, event.target.checked)} />{' '}
                  {t('workflows.save.keep', { name: parameter.name, value: (parameter.default ?? '').slice(0, 80) })}
                </label>
              </div>
            ),
          )}
          <div className="form-buttons">
            <button type="submit" className="primary" disabled={saving}>
              {t('workflows.save.save')}
            </button>
            <button type="button" onClick={onCancel}>
              {t('workflows.save.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
