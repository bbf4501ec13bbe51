import type { Translator } from './i18n/i18n';

/**
 * Why an action waits for the user's approval, as a code with its values, so every program
 * says it in its user's language (`approval.reason.<code>` in the catalogs). The English
 * sentence travels beside it as `reason`, for logs and the model.
 */
export const RISK_CODES = [
  'quitsOrCloses',
  'closesWindowKey',
  'deletesKey',
  'clicks',
  'fills',
  'closesWindow',
  'confirmAll',
  'undeclared',
  'afterReading',
  'external',
  'takesDevices',
  'menuHoldsKeyboard',
] as const;
export type RiskCode = (typeof RISK_CODES)[number];

export interface RiskReason {
  code: RiskCode;
  /** App text (a button's name) and key combos, quoted into the sentence as they are. */
  values?: Record<string, string>;
}

/** The reason in the translator's language. */
export function riskText(why: RiskReason, { t }: Translator): string {
  return t(`approval.reason.${why.code}`, { replace: why.values ?? {} });
}

/** What an action will do, in words a person checks before allowing it: "Click **Delete** in gedit?". */
export const PLAN_VERBS = ['click', 'set_value', 'type', 'key', 'scroll', 'drag', 'fill', 'close', 'focus', 'run'] as const;
export type PlanVerb = (typeof PLAN_VERBS)[number];

export interface ActionPlan {
  verb: PlanVerb;
  /** What it acts on, as the app names it (a button's name, field labels, a key combo, a tool's name); never an id. */
  target?: string;
  /** The value it sets or types, the key it presses, where a drag ends. */
  value?: string;
}
