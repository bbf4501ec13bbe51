import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkflowSummary } from '../../../shared/workflow-ipc';

interface Props {
  workflow: WorkflowSummary;
  running: boolean;
  onRun(vars: Record<string, string>, options: { dryRun: boolean; trusted: boolean }): Promise<boolean>;
  onStop(): void;
}

/** The input's id for a parameter (names are letters, digits, _ and -). */
function fieldId(name: string): string {
  return `workflow-param-${name}`;
}

/**
 * A workflow's parameters and its Run, Dry run and Stop. Secret parameters are password inputs:
 * never shown, never prefilled, and emptied once a run took them, so they live no longer than needed.
 */
export function WorkflowForm({ workflow, running, onRun, onStop }: Props) {
  const { t } = useTranslation();
  const initial = () => Object.fromEntries(workflow.parameters.map((parameter) => [parameter.name, parameter.default ?? '']));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [trusted, setTrusted] = useState(false);
  const [missing, setMissing] = useState<string | undefined>();

  const start = (dryRun: boolean) => {
    // A dry run acts on nothing, so it needs no value; a real one needs each secret and each value without a default.
    const empty = dryRun ? undefined : workflow.parameters.find((parameter) => (values[parameter.name] ?? '') === '' && parameter.default === undefined);
    setMissing(empty?.name);
    if (empty !== undefined) return;
    const vars = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
    void onRun(dryRun ? Object.fromEntries(Object.entries(vars).filter(([name]) => !isSecret(name))) : vars, { dryRun, trusted }).then((started) => {
      if (started) setValues((current) => Object.fromEntries(Object.entries(current).map(([name, value]) => [name, isSecret(name) ? '' : value])));
    });
  };
  const isSecret = (name: string) => workflow.parameters.some((parameter) => parameter.name === name && parameter.secret);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start(false);
  };

  return (
    <form className="workflow-form" onSubmit={submit} aria-label={workflow.title}>
      {workflow.parameters.length === 0 ? null : <h4>{t('workflows.parameters')}</h4>}
      {workflow.parameters.map((parameter) => {
        const id = fieldId(parameter.name);
        const error = missing === parameter.name ? t('workflows.required', { name: parameter.name }) : undefined;
        const hint = parameter.secret ? t('workflows.secretHint') : parameter.description;
        return (
          <div className="field" key={parameter.name}>
            <label htmlFor={id}>{parameter.name}</label>
            <input
              id={id}
              type={parameter.secret ? 'password' : 'text'}
              autoComplete="off"
              spellCheck={false}
              value={values[parameter.name] ?? ''}
              aria-invalid={error === undefined ? undefined : true}
              aria-describedby={[hint === undefined ? '' : `${id}-note`, error === undefined ? '' : `${id}-error`].filter(Boolean).join(' ') || undefined}
              onChange={(event) => setValues((current) => ({ ...current, [parameter.name]: event.target.value }))}
            />
            {error === undefined ? null : (
              <p className="field-error" id={`${id}-error`} role="alert">
                {error}
              </p>
            )}
            {hint === undefined ? null : (
              <p className="field-note" id={`${id}-note`}>
                {parameter.secret ? hint : hint.slice(0, 300)}
              </p>
            )}
          </div>
        );
      })}
      <div className="field checkbox-field">
        <label>
          <input type="checkbox" checked={trusted} onChange={(event) => setTrusted(event.target.checked)} /> {t('workflows.trust')}
        </label>
      </div>
      <div className="form-buttons">
        {running ? (
          <button type="button" className="primary" onClick={onStop}>
            {t('workflows.stop')}
          </button>
        ) : (
          <>
            <button type="submit" className="primary">
              {t('workflows.run')}
            </button>
            <button type="button" onClick={() => start(true)}>
              {t('workflows.dryRun')}
            </button>
          </>
        )}
      </div>
    </form>
  );
}
