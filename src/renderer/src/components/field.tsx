import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  id: string;
  label: string;
  /** The environment variable that decides this value right now: the control is read-only and the note names it. */
  overriddenBy?: string | undefined;
  hint?: string;
  /** What is wrong with the value, said under the field (the control points to it with aria-describedby). */
  error?: string | undefined;
  children: ReactNode;
}

/** A labelled settings row; its hint, override note and error are tied to the control by aria-describedby on it. */
export function Field({ id, label, overriddenBy, hint, error, children }: Props) {
  const { t } = useTranslation();
  return (
    <div className={`field${overriddenBy === undefined ? '' : ' overridden'}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error === undefined ? null : (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      {overriddenBy !== undefined ? (
        <p className="field-note" id={`${id}-note`}>
          {t('common.overriddenBy', { variable: overriddenBy })}
        </p>
      ) : hint === undefined ? null : (
        <p className="field-note" id={`${id}-note`}>
          {hint}
        </p>
      )}
    </div>
  );
}
