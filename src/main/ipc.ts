import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { z } from 'zod';
import { ValidationError, serializeError } from '../shared/errors';
import type { IpcReply } from '../shared/ipc';

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
      if (!parsed.success) throw new ValidationError(`${channel}: invalid payload: ${describeIssues(parsed.error.issues)}`);
      return { ok: true, value: await handler(parsed.data, event) };
    } catch (error) {
      return { ok: false, error: serializeError(error) };
    }
  });
}

/** Names the field, so the settings view can say which input is wrong ("baseUrl: Invalid URL"). Values are never echoed: one may be a key. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`)).join('; ');
}
