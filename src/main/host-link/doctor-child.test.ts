import { describe, expect, it } from 'vitest';
import type { HostSettings } from '../../shared/host-protocol';
import type { DoctorReport } from '../../shared/ipc';
import { keyringCheck, runDoctorChild, type DoctorChild } from './doctor-child';

const settings = {} as HostSettings;

function fakeChild(
  answer: (message: unknown, reply: (raw: unknown) => void, exit: (code: number) => void) => void,
): DoctorChild & { killed: boolean; sent: unknown[] } {
  const listeners: ((raw: unknown) => void)[] = [];
  const exits: ((code: number | null) => void)[] = [];
  const child = {
    killed: false,
    sent: [] as unknown[],
    postMessage: (message: unknown) => {
      child.sent.push(message);
      answer(
        message,
        (raw) => listeners.forEach((listener) => listener(raw)),
        (code) => exits.forEach((listener) => listener(code)),
      );
    },
    onMessage: (listener: (raw: unknown) => void) => void listeners.push(listener),
    onExit: (listener: (code: number | null) => void) => void exits.push(listener),
    kill: () => void (child.killed = true),
  };
  return child;
}

const report: DoctorReport = {
  ok: true,
  checks: [
    { id: 'display', status: 'ok', figure: 'DISPLAY=:0 answers' },
    { id: 'keyring', status: 'ok', figure: 'org.freedesktop.secrets' },
    { id: 'provider', status: 'ok', figure: 'openai' },
  ],
};

describe('the Diagnose button in main', () => {
  it('sends the settings and online flag, and puts its own keychain check in place of the child’s', async () => {
    const child = fakeChild((_message, reply) => setTimeout(() => reply({ type: 'doctor-report', report }), 0));
    const keyring = keyringCheck({ isEncryptionAvailable: () => true, getSelectedStorageBackend: () => 'basic_text' }, 'linux');
    const result = await runDoctorChild({ spawn: () => child, settings, online: true, keyring });
    expect(child.sent).toEqual([{ type: 'doctor', settings, online: true }]);
    expect(result.ok).toBe(false);
    expect(result.checks.map((check) => `${check.id} ${check.status}`)).toEqual(['display ok', 'keyring fail', 'provider ok']);
    expect(result.checks[1]).toMatchObject({ fixKey: 'no-keyring', figure: 'safeStorage: basic_text' });
  });

  it('refuses a report it cannot read, and a child that exits or hangs', async () => {
    await expect(
      runDoctorChild({ spawn: () => fakeChild((_m, reply) => reply({ type: 'doctor-report', report: { ok: 'yes' } })), settings, online: false }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(runDoctorChild({ spawn: () => fakeChild((_m, _reply, exit) => exit(1)), settings, online: false })).rejects.toMatchObject({ code: 'TIMEOUT' });
    const silent = fakeChild(() => undefined);
    await expect(runDoctorChild({ spawn: () => silent, settings, online: false, timeoutMs: 20 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(silent.killed).toBe(true);
  });

  it('names the keychain safeStorage uses', () => {
    expect(keyringCheck({ isEncryptionAvailable: () => true, getSelectedStorageBackend: () => 'gnome_libsecret' }, 'linux')).toMatchObject({
      status: 'ok',
      figure: 'safeStorage: gnome_libsecret',
    });
    expect(keyringCheck({ isEncryptionAvailable: () => true }, 'darwin')).toMatchObject({ status: 'ok', figure: 'safeStorage: Keychain' });
    expect(keyringCheck({ isEncryptionAvailable: () => false }, 'win32')).toMatchObject({ status: 'fail' });
  });
});
