import { contextBridge, ipcRenderer } from 'electron';
import { deserializeError } from '../shared/errors';
import { CHANNELS, type AppInfoReply, type DeskpilotApi, type IpcReply } from '../shared/ipc';

async function invoke<T>(channel: string, payload?: unknown): Promise<T> {
  const reply = (await ipcRenderer.invoke(channel, payload)) as IpcReply<T>;
  if (!reply.ok) throw deserializeError(reply.error);
  return reply.value;
}

// The renderer sees this typed API only, never ipcRenderer itself.
const api: DeskpilotApi = {
  appInfo: () => invoke<AppInfoReply>(CHANNELS.appInfo),
};

contextBridge.exposeInMainWorld('deskpilot', api);
