import type { ApprovalPolicy, PresetName, VisionSetting } from '../../../shared/settings';
import { z } from 'zod';
import { WINDOW_FIELDS, type PublicSettings, type SettingsPatch, type WindowName } from '../../../shared/settings-derive';
import { controlId } from './setting-control';

/** Why a draft cannot be sent, as its catalog key. */
export type FormError =
  | 'settings.baseUrlInvalid'
  | 'settings.historyLimitInvalid'
  | 'settings.newKeyMissing'
  | 'settings.newHeadersMissing'
  | 'settings.numberInvalid'
  | 'settings.valueInvalid';

/** A draft that cannot be sent: what is wrong, and the id of the field it is about. */
export interface FieldError {
  error: FormError;
  field: string;
  /** The bounds a number must keep, for the message. */
  values?: { min: number; max: number };
}

/** What the settings view does with a stored credential it cannot read back. */
export type SecretAction = 'keep' | 'replace' | 'remove';

/** What the settings view edits; the API key and the header values are only ever written, never read back. */
export interface SettingsDraft {
  preset: PresetName;
  baseUrl: string;
  model: string;
  approvalPolicy: ApprovalPolicy;
  openAtLogin: boolean;
  historyLimit: string;
  embeddingModel: string;
  vision: VisionSetting;
  keyAction: SecretAction;
  newKey: string;
  headersAction: SecretAction;
  /** All the headers, as `Name: value; Name2: value`: a patch replaces the stored ones as a whole. */
  newHeaders: string;
  /** The settings the form shows by their type (SettingControl): a checkbox's state, a number as typed. */
  fields: Record<WindowName, string | boolean>;
}

export function draftOf(settings: PublicSettings): SettingsDraft {
  return {
    preset: settings.preset,
    baseUrl: settings.baseUrl,
    model: settings.model,
    approvalPolicy: settings.approvalPolicy,
    openAtLogin: settings.openAtLogin,
    historyLimit: String(settings.historyLimit),
    embeddingModel: settings.embeddingModel,
    vision: settings.vision,
    keyAction: 'keep',
    newKey: '',
    headersAction: 'keep',
    newHeaders: '',
    fields: Object.fromEntries(
      WINDOW_FIELDS.map(({ name }) => {
        const value: unknown = settings[name];
        return [name, typeof value === 'boolean' ? value : String(value)];
      }),
    ) as Record<WindowName, string | boolean>,
  };
}

/**
 * Only what changed, and never a field an environment variable overrides (main would keep the
 * stored value anyway, and the user could not see the effect). Returns the catalog key of the
 * error for input that cannot be sent at all.
 */
export function patchOf(settings: PublicSettings, draft: SettingsDraft): { patch: SettingsPatch } | FieldError {
  const patch: SettingsPatch = {};
  const locked = new Set(settings.envOverrides);
  const set = <K extends keyof SettingsPatch>(key: K, value: SettingsPatch[K], before: unknown) => {
    if (!locked.has(key) && value !== before) patch[key] = value;
  };
  set('preset', draft.preset, settings.preset);
  const baseUrl = draft.baseUrl.trim();
  if (!locked.has('baseUrl') && baseUrl !== '' && !/^https?:\/\/\S+$/i.test(baseUrl)) return { error: 'settings.baseUrlInvalid', field: 'base-url' };
  set('baseUrl', baseUrl, settings.baseUrl);
  set('model', draft.model.trim(), settings.model);
  set('approvalPolicy', draft.approvalPolicy, settings.approvalPolicy);
  set('openAtLogin', draft.openAtLogin, settings.openAtLogin);
  const limit = Number(draft.historyLimit);
  if (draft.historyLimit.trim() === '' || !Number.isInteger(limit) || limit < 0) return { error: 'settings.historyLimitInvalid', field: 'history-limit' };
  set('historyLimit', limit, settings.historyLimit);
  set('embeddingModel', draft.embeddingModel.trim(), settings.embeddingModel);
  set('vision', draft.vision, settings.vision);
  for (const { name, schema } of WINDOW_FIELDS) {
    const text = draft.fields[name];
    const number = schema instanceof z.ZodNumber ? schema : undefined;
    const parsed = schema.safeParse(number !== undefined && typeof text === 'string' ? (text.trim() === '' ? Number.NaN : Number(text)) : text);
    if (locked.has(name)) continue;
    if (!parsed.success) {
      const bounds =
        number === undefined ? {} : { values: { min: number.minValue ?? Number.MIN_SAFE_INTEGER, max: number.maxValue ?? Number.MAX_SAFE_INTEGER } };
      return { error: number === undefined ? 'settings.valueInvalid' : 'settings.numberInvalid', field: controlId(name), ...bounds };
    }
    set(name, parsed.data as SettingsPatch[WindowName], settings[name]);
  }
  if (!locked.has('apiKey')) {
    if (draft.keyAction === 'remove') patch.apiKey = null;
    if (draft.keyAction === 'replace') {
      if (draft.newKey.trim() === '') return { error: 'settings.newKeyMissing', field: 'api-key' };
      patch.apiKey = draft.newKey.trim();
    }
  }
  if (!locked.has('headers')) {
    if (draft.headersAction === 'remove') patch.headers = null;
    if (draft.headersAction === 'replace') {
      if (draft.newHeaders.trim() === '') return { error: 'settings.newHeadersMissing', field: 'headers' };
      patch.headers = draft.newHeaders.trim();
    }
  }
  return { patch };
}
