/**
 * The host started with `--doctor`: main's Diagnose button runs `deskpilot doctor`'s checks in
 * a process of their own, so a desktop call that never returns cannot stall the app, and the
 * chat's own host is left alone. It takes one request, answers one report, and exits.
 */
import type { HostSettings } from '../shared/host-protocol';
import type { DoctorReport } from '../shared/ipc';
import { runDoctor } from '../core/doctor/doctor';
import { providerSettings } from '../core/provider-config/provider-settings';

/** What main sends; the settings carry the decrypted key, as they do to the chat's host. */
export interface DoctorRun {
  type: 'doctor';
  settings: HostSettings;
  online: boolean;
}

export interface DoctorAnswer {
  type: 'doctor-report';
  report: DoctorReport;
}

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

/** Electron's parentPort in a utilityProcess, else Node's IPC channel (child_process.fork in tests). */
function channel(): { post(message: unknown): void; onMessage(listener: (raw: unknown) => void): void } {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort !== undefined)
    return { post: (message) => parentPort.postMessage(message), onMessage: (listener) => void parentPort.on('message', (event) => listener(event.data)) };
  return { post: (message) => void process.send?.(message), onMessage: (listener) => void process.on('message', listener) };
}

export function serveDoctor(ownPids: readonly number[]): void {
  const { post, onMessage } = channel();
  onMessage((raw) => {
    const request = raw as Partial<DoctorRun> | undefined;
    if (request?.type !== 'doctor' || request.settings === undefined) return;
    void runDoctor({
      env: process.env,
      settings: providerSettings(request.settings),
      online: request.online === true,
      ownPids,
      ...(process.env['DESKPILOT_DATA_DIR'] === undefined ? {} : { dataDir: process.env['DESKPILOT_DATA_DIR'] }),
    }).then((report) => {
      post({ type: 'doctor-report', report } satisfies DoctorAnswer);
      // Posting is asynchronous; exit once the message is on its way.
      setTimeout(() => process.exit(0), 50);
    });
  });
}
