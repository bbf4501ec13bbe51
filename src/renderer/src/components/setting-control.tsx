import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { WINDOW_FIELDS, type WindowName } from '../../../shared/settings-derive';
import { Field } from './field';

/** The control's id: the setting's name in kebab case (`maxIterations` → `max-iterations`). */
export function controlId(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

interface Props {
  name: WindowName;
  /** A checkbox's state, or a number's text as typed (checked when the form is sent). */
  value: string | boolean;
  overriddenBy: string | undefined;
  error: string | undefined;
  onChange(value: string | boolean): void;
}

/**
 * A setting's control, picked by its schema in settings-schema.ts: a checkbox for a boolean, a
 * number field (with the schema's bounds) for a number, a text field otherwise. A new setting of
 * these kinds needs no code here, only its field and its words in the catalogs.
 */
export function SettingControl({ name, value, overriddenBy, error, onChange }: Props) {
  const { t } = useTranslation();
  const schema = WINDOW_FIELDS.find((field) => field.name === name)?.schema;
  const id = controlId(name);
  const locked = overriddenBy !== undefined;
  const label = t(`settings.fields.${name}.label`);
  const hint = t(`settings.fields.${name}.hint`);
  const describedBy = { 'aria-describedby': [`${id}-note`, ...(error === undefined ? [] : [`${id}-error`])].join(' ') };
  if (typeof value === 'boolean') {
    return (
      <div className={`field checkbox-field${locked ? ' overridden' : ''}`}>
        <input id={id} type="checkbox" checked={value} disabled={locked} {...describedBy} onChange={(event) => onChange(event.target.checked)} />
        <label htmlFor={id}>{label}</label>
        <p className="field-note" id={`${id}-note`}>
          {locked ? t('common.overriddenBy', { variable: overriddenBy }) : hint}
        </p>
      </div>
    );
  }
  const number = schema instanceof z.ZodNumber ? schema : undefined;
  return (
    <Field id={id} label={label} overriddenBy={overriddenBy} error={error} hint={hint}>
      <input
        id={id}
        type={number === undefined ? 'text' : 'number'}
        {...(number === undefined ? {} : { min: number.minValue ?? undefined, max: number.maxValue ?? undefined, ...(number.isInt ? { step: 1 } : {}) })}
        value={value}
        readOnly={locked}
        {...describedBy}
        {...(error === undefined ? {} : { 'aria-invalid': true })}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
