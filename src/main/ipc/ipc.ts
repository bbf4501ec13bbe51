import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { z } from 'zod';
import { ValidationError, serializeError } from '../../shared/errors';
import { describeIssues } from '../../shared/validation';
import type { IpcReply } from '../../shared/ipc';

/**
 * The one way main answers the renderer: the sender must be our own window's main frame,
 * the payload must pass its schema, and errors come back typed instead of as rejections,
 * which Electron flattens to a bare message.
 */
export function handle<Schema extends z.ZodType, Reply>(
  channel: string,
  schema: Schema,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
  handler: (payload: z.infer<Schema>, event: IpcMainInvokeEvent) => Promise<Reply> | Reply,
): void {
  ipcMain.handle(channel, async (event, payload: unknown): Promise<IpcReply<Reply>> => {
    try {
      if (!isTrustedSender(event)) throw new ValidationError(`${channel}: refused a message from an unknown sender`);
      const parsed = schema.safeParse(payload);
      // Every issue, so the settings view can name each wrong input.
      if (!parsed.success) throw new ValidationError(`${channel}: invalid payload: ${describeIssues(parsed.error.issues)}`);
      return { ok: true, value: await handler(parsed.data, event) };
    } catch (error) {
      return { ok: false, error: serializeError(error) };
    }
  });
}
