import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { toIpcError } from '../shared/ipc-error';
import { CHANNELS, EVENT_CHANNEL, type AppEvent, type DeskpilotApi, type IpcReply } from '../shared/ipc';

async function invoke<T>(channel: string, payload?: unknown): Promise<T> {
  const reply = (await ipcRenderer.invoke(channel, payload)) as IpcReply<T>;
  // The context bridge keeps only an Error's message, so a failure crosses as the plain typed
  // envelope ({ code, message, data }), which it copies whole; the window reads the code from it.
  if (!reply.ok) return Promise.reject(toIpcError(reply.error));
  return reply.value;
}

// The renderer sees this typed API only, never ipcRenderer itself. Each call is a thin
// forward: main validates every payload, so nothing here is trusted.
const api: DeskpilotApi = {
  appInfo: () => invoke(CHANNELS.appInfo),
  status: () => invoke(CHANNELS.status),
  ask: (request) => invoke(CHANNELS.ask, request),
  stop: () => invoke(CHANNELS.stop),
  approve: (request) => invoke(CHANNELS.approve, request),
  history: () => invoke(CHANNELS.history),
  clearHistory: () => invoke(CHANNELS.clearHistory),
  settings: () => invoke(CHANNELS.settings),
  updateSettings: (patch) => invoke(CHANNELS.updateSettings, patch),
  openPermissionSettings: () => invoke(CHANNELS.openPermissionSettings),
  openExternal: (request) => invoke(CHANNELS.openExternal, request),
  hideWindow: () => invoke(CHANNELS.hideWindow),
  restartHost: () => invoke(CHANNELS.restartHost),
  docsStatus: () => invoke(CHANNELS.docsStatus),
  rebuildDocs: () => invoke(CHANNELS.rebuildDocs),
  addDocsFolder: () => invoke(CHANNELS.addDocsFolder),
  importMcpServers: () => invoke(CHANNELS.importMcpServers),
  doctor: (request) => invoke(CHANNELS.doctor, request),
  listWorkflows: () => invoke(CHANNELS.listWorkflows),
  runWorkflow: (request) => invoke(CHANNELS.runWorkflow, request),
  stopWorkflow: () => invoke(CHANNELS.stopWorkflow),
  draftWorkflow: (request) => invoke(CHANNELS.draftWorkflow, request),
  saveWorkflow: (request) => invoke(CHANNELS.saveWorkflow, request),
  relaunchApp: () => invoke(CHANNELS.relaunchApp),
  onEvent(listener) {
    // The IpcRendererEvent stays here: it carries `sender`, which the renderer must not get.
    const forward = (_event: IpcRendererEvent, message: AppEvent): void => listener(message);
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.off(EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('deskpilot', api);
