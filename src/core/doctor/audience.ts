/**
 * Doctor results worded for the program that prints them. The app's user fixes things in
 * Settings; the CLI's user has no Settings window and sets variables. A part the printing
 * program does not need right now is shown as "–" with the reason, never as a failure: a
 * missing keyring must not fail `deskpilot doctor` for a CLI that never reads one.
 */
import type { DoctorCheck } from '../../shared/ipc';
import type { Environment, ResolvedProviderConfig } from '../agent/provider';

export type DoctorAudience = 'cli' | 'app';

/** Where the API key comes from, when it is not the keyring: a variable, or no key at all. */
function keyOutsideKeyring(config: ResolvedProviderConfig | undefined, env: Environment): string | undefined {
  if (config === undefined) return undefined;
  if (config.apiKey === undefined) return `${config.presetInfo.label} needs no API key`;
  const variable = ['DESKPILOT_API_KEY', config.presetInfo.keyEnv].find((name) => name !== undefined && (env[name] ?? '') !== '');
  return variable === undefined ? undefined : `the API key comes from ${variable}`;
}

function keyring(check: DoctorCheck, audience: DoctorAudience, config: ResolvedProviderConfig | undefined, env: Environment): DoctorCheck {
  const { fix: _fix, fixKey: _fixKey, ...rest } = check;
  if (audience === 'cli') {
    return {
      ...rest,
      status: 'skip',
      figure: `not needed: the CLI takes its API key from DESKPILOT_API_KEY and never reads a keyring (found: ${check.figure})`,
    };
  }
  const elsewhere = keyOutsideKeyring(config, env);
  if (check.status !== 'fail' || elsewhere === undefined) return check;
  return { ...rest, status: 'skip', figure: `not needed now: ${elsewhere} (${check.figure})` };
}

/** The fix in the printing program's own terms, for the checks whose fix names a place to change something. */
function fixFor(check: DoctorCheck, audience: DoctorAudience, config: ResolvedProviderConfig | undefined): string | undefined {
  const keyVariables = ['DESKPILOT_API_KEY', ...(config?.presetInfo.keyEnv === undefined ? [] : [config.presetInfo.keyEnv])].join(' or ');
  switch (check.fixKey) {
    case 'provider-key':
      return audience === 'cli' ? `set a key the server accepts in ${keyVariables}` : 'replace the key in Settings → Provider';
    case 'provider-model':
      return audience === 'cli' ? 'name a model this provider has in DESKPILOT_MODEL' : 'choose a model this provider has in Settings → Provider → Model';
    case 'provider-unreachable':
      if (config?.presetInfo.local === true) return check.fix;
      return audience === 'cli'
        ? 'check the network, a proxy (HTTPS_PROXY) and DESKPILOT_BASE_URL'
        : 'check the network, a proxy (HTTPS_PROXY) and the base URL in Settings → Provider';
    case 'mac-accessibility':
      return audience === 'cli'
        ? 'System Settings → Privacy & Security → Accessibility: turn on the terminal you run deskpilot in (Terminal, iTerm)'
        : 'System Settings → Privacy & Security → Accessibility: turn on Deskpilot';
    default:
      // Any other fix that offers Settings as one way among others: the CLI's user has no Settings window.
      return audience === 'cli' ? withoutSettings(check.fix) : check.fix;
  }
}

/** The fix without its clauses about the app's Settings ("…; or add a key in Settings → Provider; …"). */
function withoutSettings(fix: string | undefined): string | undefined {
  if (fix === undefined || !fix.includes('Settings →')) return fix;
  const kept = fix.split('; ').filter((clause) => !clause.includes('Settings →'));
  return kept.length === 0 ? fix : kept.join('; ');
}

export function forAudience(
  checks: readonly DoctorCheck[],
  audience: DoctorAudience,
  config: ResolvedProviderConfig | undefined,
  env: Environment,
): DoctorCheck[] {
  return checks.map((check) => {
    if (check.id === 'keyring') return keyring(check, audience, config, env);
    if (check.status !== 'fail' || check.fix === undefined) return check;
    const fix = fixFor(check, audience, config);
    return fix === undefined ? check : { ...check, fix };
  });
}
