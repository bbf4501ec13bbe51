import type { DeskpilotApi } from '../shared/ipc';

declare global {
  interface Window {
    deskpilot: DeskpilotApi;
  }
}
