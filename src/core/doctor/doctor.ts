/**
 * `deskpilot doctor` and the window's Diagnose button: every part Deskpilot needs, checked on
 * its own, each part with a deadline so a broken one is a ✗ and never a hang.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { DoctorCheck, DoctorReport } from '../../shared/ipc';
import type { Environment, ProviderSettings, ResolvedProviderConfig } from '../agent/provider';
import { dataDir } from '../platform/data-dir';
import { INDEX_FILE } from '../doc-search/service';
import { platformTraits } from '../platform/traits';
import { forAudience, type DoctorAudience } from './audience';
import { providerConfigCheck, providerOnlineChecks, ONLINE_TIMEOUT_MS } from './provider';

export interface DoctorOptions {
  env: Environment;
  /** process.platform, or DESKPILOT_PLATFORM. */
  platform?: string;
  /** Send the provider one tiny request too. */
  online?: boolean;
  /** The app's provider settings; the CLI has none and reads the environment. */
  settings?: ProviderSettings;
  /** Deskpilot's own processes (the app's Electron is not an app to fix). */
  ownPids?: readonly number[];
  /** Where the documentation index lives; the data folder by default. */
  dataDir?: string;
  fetch?: typeof fetch;
  /** Who prints the report: the fixes name Settings in the app and variables on the CLI. By default the app when it passes settings. */
  audience?: DoctorAudience;
}

/** A desktop part that takes longer than this is reported as not answering. */
const PART_MS = 4000;

async function bounded(ids: DoctorCheck['id'][], work: Promise<DoctorCheck[]>, ms: number): Promise<DoctorCheck[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<DoctorCheck[]>((resolve) => {
    timer = setTimeout(() => resolve(ids.map((id) => ({ id, status: 'fail', figure: `no answer within ${ms / 1000} s` }))), ms);
  });
  try {
    return await Promise.race([
      work.catch((error: unknown) => ids.map((id) => ({ id, status: 'fail' as const, figure: error instanceof Error ? error.message : String(error) }))),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** This OS's desktop checks, each part under its own deadline (the platform says which it has). */
async function desktopChecks(platform: string, options: DoctorOptions): Promise<DoctorCheck[]> {
  const parts = platformTraits(platform).diagnose(options.env, options.ownPids);
  return (await Promise.all(parts.map((part) => bounded([...part.ids], part.run(), part.deadlineMs)))).flat();
}

function docsCheck(folder: string): DoctorCheck {
  const file = path.join(folder, INDEX_FILE);
  if (!existsSync(file))
    return { id: 'docs-index', status: 'skip', figure: `not built yet (${file}): the first documentation search builds it, or deskpilot docs index` };
  const { size, mtime } = statSync(file);
  return { id: 'docs-index', status: 'ok', figure: `${file}, ${(size / 1e6).toFixed(1)} MB, updated ${mtime.toISOString().slice(0, 16).replace('T', ' ')}` };
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const platform = options.env['DESKPILOT_PLATFORM'] ?? options.platform ?? process.platform;
  let resolved: ResolvedProviderConfig | undefined;
  const providerPart = async (): Promise<DoctorCheck[]> => {
    const { check, config } = await providerConfigCheck(options.settings ?? {}, options.env);
    resolved = config;
    if (options.online !== true) return [check];
    if (config === undefined) {
      return [
        check,
        ...(['provider-reachable', 'provider-key', 'provider-model', 'provider-tools'] as const).map((id) => ({
          id,
          status: 'skip' as const,
          figure: 'no provider configured',
        })),
      ];
    }
    return [check, ...(await providerOnlineChecks(config, options.fetch))];
  };
  const [desktop, provider] = await Promise.all([
    desktopChecks(platform, options),
    bounded(['provider'], providerPart(), options.online === true ? ONLINE_TIMEOUT_MS + 2000 : PART_MS),
  ]);
  const audience = options.audience ?? (options.settings === undefined ? 'cli' : 'app');
  const checks = forAudience([...desktop, ...provider, docsCheck(options.dataDir ?? dataDir(options.env))], audience, resolved, options.env);
  return { ok: checks.every((check) => check.status !== 'fail'), checks };
}
