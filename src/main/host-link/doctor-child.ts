/**
 * Main's side of the Diagnose button: the doctor's checks run in a host process of their own
 * (`host.js --doctor`), which answers one report and exits; main only adds what it alone
 * knows, the keychain Electron's safeStorage really uses. No electron import here, so tests
 * drive it with a fake child.
 */
import { TimeoutError, ValidationError } from '../../shared/errors';
import type { HostSettings } from '../../shared/host-protocol';
import type { DoctorCheck, DoctorReport } from '../../shared/ipc';
import { DOCTOR_REPORT_SCHEMA } from '../../shared/ipc-schemas';

export interface DoctorChild {
  postMessage(message: unknown): void;
  onMessage(listener: (raw: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

/** The desktop checks take seconds at most and the online probe 15 s; past this the child is killed. */
export const DOCTOR_TIMEOUT_MS = 30_000;

export interface DoctorRequestOptions {
  spawn: () => DoctorChild;
  settings: HostSettings;
  online: boolean;
  /** The keychain check as main sees it, in place of the child's guess from the session bus. */
  keyring?: DoctorCheck;
  timeoutMs?: number;
}

export function runDoctorChild(options: DoctorRequestOptions): Promise<DoctorReport> {
  const child = options.spawn();
  return new Promise<DoctorReport>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new TimeoutError(`the checks did not finish within ${(options.timeoutMs ?? DOCTOR_TIMEOUT_MS) / 1000} s`));
    }, options.timeoutMs ?? DOCTOR_TIMEOUT_MS);
    child.onMessage((raw) => {
      if ((raw as { type?: unknown } | undefined)?.type !== 'doctor-report') return;
      clearTimeout(timer);
      const parsed = DOCTOR_REPORT_SCHEMA.safeParse((raw as { report?: unknown }).report);
      if (!parsed.success) {
        reject(new ValidationError('the doctor sent a report main could not read'));
        return;
      }
      resolve(withKeyring(parsed.data, options.keyring));
    });
    child.onExit((code) => {
      clearTimeout(timer);
      // After a report this does nothing; before one it is the only answer there will be.
      reject(new TimeoutError(`the checks stopped before reporting (exit code ${code ?? '?'})`));
    });
    child.postMessage({ type: 'doctor', settings: options.settings, online: options.online });
  });
}

function withKeyring(report: DoctorReport, keyring: DoctorCheck | undefined): DoctorReport {
  if (keyring === undefined) return report;
  const checks = report.checks.some((check) => check.id === 'keyring')
    ? report.checks.map((check) => (check.id === 'keyring' ? keyring : check))
    : [
        ...report.checks.filter((check) => !check.id.startsWith('provider') && check.id !== 'docs-index'),
        keyring,
        ...report.checks.filter((check) => check.id.startsWith('provider') || check.id === 'docs-index'),
      ];
  return { ok: checks.every((check) => check.status !== 'fail'), checks };
}

/** What Electron's safeStorage says about the keychain it encrypts the API key with. */
export function keyringCheck(safeStorage: { isEncryptionAvailable(): boolean; getSelectedStorageBackend?(): string }, platform: string): DoctorCheck {
  const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend?.() : undefined;
  if (!safeStorage.isEncryptionAvailable() || backend === 'basic_text' || backend === 'unknown') {
    return {
      id: 'keyring',
      status: 'fail',
      figure: `safeStorage: ${backend ?? (safeStorage.isEncryptionAvailable() ? 'available' : 'not available')}`,
      fix: 'install gnome-keyring (or KWallet) and unlock it at login: without one the app will not store an API key; the CLI reads DESKPILOT_API_KEY',
      fixKey: 'no-keyring',
    };
  }
  return {
    id: 'keyring',
    status: 'ok',
    figure: `safeStorage: ${backend ?? (platform === 'darwin' ? 'Keychain' : platform === 'win32' ? 'DPAPI' : 'available')}`,
  };
}
