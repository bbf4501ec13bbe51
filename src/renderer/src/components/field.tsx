import type { ReactNode } from 'react';

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
  return (
    <div className={`field${overridden ? ' overridden' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {overridden ? (
        <p className="field-note" id={`${id}-note`}>
          Set by an environment variable, which overrides this setting.
        </p>
      ) : hint === undefined ? null : (
        <p className="field-note" id={`${id}-note`}>
          {hint}
        </p>
      )}
    </div>
  );
}
