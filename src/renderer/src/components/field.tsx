import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  id: string;
  label: string;
  /** Set when an environment variable decides this value: the control is read-only. */
  overridden?: boolean;
  hint?: string;
  children: ReactNode;
}

/** A labelled settings row; its hint and override note are tied to the control by aria-describedby on it. */
export function Field({ id, label, overridden = false, hint, children }: Props) {
  const { t } = useTranslation();
  return (
    <div className={`field${overridden ? ' overridden' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {overridden ? (
        <p className="field-note" id={`${id}-note`}>
          {t('common.overridden')}
        </p>
      ) : hint === undefined ? null : (
        <p className="field-note" id={`${id}-note`}>
          {hint}
        </p>
      )}
    </div>
  );
}
